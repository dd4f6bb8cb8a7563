internal import CZlib

/// Decompresses gzip data for the secret scan, within a size and a ratio limit (zlib).
///
/// A compressed log is stored as it was given, so its credentials would reach the disk unseen
/// unless the scan reads what it holds. A small file can expand without bound (a "zip bomb"): the
/// output is capped, and data that would go past the cap is refused rather than stored unscanned.
/// Concatenated gzip members (what `cat a.gz b.gz` gives) are all read.
enum GzipInflater {
    /// Why data could not be decompressed within the limits.
    enum Failure: Error, Equatable {
        /// The output would pass `limit` bytes.
        case tooLarge(limit: Int)
        /// The data is not a valid gzip stream.
        case corrupt(String)
    }

    /// The most bytes one attachment may expand to.
    static let maximumOutput = 64 * 1_048_576
    /// The most a byte may expand to, on average (text logs compress about 5 to 20 times).
    static let maximumRatio = 200

    /// Whether `bytes` start like gzip data (magic `1f 8b`, method deflate).
    static func isGzip(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 10 && bytes[0] == 0x1F && bytes[1] == 0x8B && bytes[2] == 0x08
    }

    /// The decompressed bytes, at most `min(maximumOutput, maximumRatio × input, ≥ 1 MiB)` of them.
    static func inflate(_ input: [UInt8]) throws(Failure) -> [UInt8] {
        let limit = min(maximumOutput, max(1_048_576, input.count.multipliedReportingOverflow(by: maximumRatio).overflow ? maximumOutput : input.count * maximumRatio))
        var stream = z_stream()
        // 16 + MAX_WBITS: a gzip wrapper, not raw deflate or zlib.
        guard inflateInit2_(&stream, 16 + MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw .corrupt("zlib could not start")
        }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var result: Failure?
        input.withUnsafeBufferPointer { inBuffer in
            stream.next_in = UnsafeMutablePointer(mutating: inBuffer.baseAddress)
            stream.avail_in = UInt32(inBuffer.count)
            while true {
                let status: Int32 = chunk.withUnsafeMutableBufferPointer { out in
                    stream.next_out = out.baseAddress
                    stream.avail_out = UInt32(out.count)
                    return CZlib.inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunk.count - Int(stream.avail_out)
                if output.count + produced > limit { result = .tooLarge(limit: limit); return }
                output.append(contentsOf: chunk[0..<produced])
                switch status {
                case Z_OK:
                    if stream.avail_in == 0 && produced == 0 { result = .corrupt("the data ends inside a gzip member"); return }
                case Z_STREAM_END:
                    // Another member may follow; anything else after the last member is refused too.
                    if stream.avail_in == 0 { return }
                    guard stream.avail_in >= 2, stream.next_in[0] == 0x1F, stream.next_in[1] == 0x8B, inflateReset(&stream) == Z_OK else {
                        result = .corrupt("unexpected bytes after the gzip data"); return
                    }
                case Z_BUF_ERROR:
                    if stream.avail_in == 0 { result = .corrupt("the data ends inside a gzip member"); return }
                default:
                    result = .corrupt(stream.msg.map { String(cString: $0) } ?? "zlib error \(status)")
                    return
                }
            }
        }
        if let result { throw result }
        return output
    }
}
