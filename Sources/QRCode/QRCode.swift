// The QRCode module: a pure-Swift QR code encoder, so that `growcert run start` can show a run's nonce as a QR
// code on a terminal for a QA tester to scan with a phone.
//
// It encodes bytes in byte mode into QR code versions 1 to 10 (21×21 to 57×57 modules) at any of the four
// error-correction levels, as ISO/IEC 18004:2015 specifies: the smallest version that fits, Reed–Solomon over
// GF(256), interleaved blocks, all eight data masks scored with the four penalty rules and the lowest kept, then
// format and version information. It knows nothing of runs or nonces; the caller passes the bytes.

/// A QR code symbol: a square of dark and light modules encoding some bytes.
///
/// The same bytes and level always give the same symbol (no randomness, no clock), so a code can be compared,
/// tested against fixtures and re-drawn. Draw it with `terminalText(quietZone:inverted:)` or read its modules
/// with `isDark(x:y:)`.
///
/// Where ISO/IEC 18004 leaves the mask choice open to reading, this encoder scores each mask as the standard's
/// procedure orders it (mask before format information): the format and version areas and the dark module count
/// as light while masks are scored. That is segno's reading; some encoders (e.g. Nayuki's qrcodegen, ZXing) score
/// with the format bits drawn and may choose another mask for the same data. Every mask gives a valid symbol that
/// any reader decodes.
package struct QRCode: Sendable, Equatable {
    /// The width and height in modules, without quiet zone: `17 + 4 × version`.
    package let size: Int
    /// The QR code version, 1 to 10: the smallest that holds the bytes at the chosen level.
    package let version: Int
    /// The error-correction level the code was made with.
    package let errorCorrection: ErrorCorrection
    /// The data mask pattern (0 to 7) the penalty rules chose.
    package let mask: Int
    private let modules: [Bool]

    /// The largest version this encoder makes (57×57 modules); larger codes are hard to scan from a terminal.
    package static let maximumVersion = 10

    /// Encodes bytes in byte mode into the smallest QR code version that holds them.
    ///
    /// For a run's nonce pass its UTF-8 bytes: `try QRCode(encoding: Array(nonce.utf8))`. A 36-character UUID fits
    /// version 3 at level M.
    ///
    /// - Throws: `QRCodeError.tooLong` when the bytes do not fit version 10 at this level (at most 271, 213, 151 or
    ///   119 bytes at L, M, Q or H).
    package init(encoding bytes: [UInt8], errorCorrection: ErrorCorrection = .medium) throws {
        guard let layout = BlockLayout.smallestFitting(byteCount: bytes.count, level: errorCorrection) else {
            throw QRCodeError.tooLong(
                bytes: bytes.count,
                max: BlockLayout(version: Self.maximumVersion, level: errorCorrection).byteCapacity
            )
        }
        let codewords = layout.finalMessage(dataCodewords: layout.dataCodewords(for: bytes))
        var grid = ModuleGrid(version: layout.version)
        grid.place(codewords: codewords)

        var chosen = (mask: 0, score: 0, grid: grid)
        for mask in 0..<8 {
            var candidate = grid
            candidate.applyMask(mask)
            let score = MaskPenalty.score(of: candidate)
            // The first of equal scores stays, as the standard's "lowest penalty" is read by every encoder.
            if mask == 0 || score < chosen.score {
                chosen = (mask, score, candidate)
            }
        }
        chosen.grid.drawFormatInformation(level: errorCorrection, mask: chosen.mask)
        chosen.grid.drawVersionInformation()

        size = chosen.grid.size
        version = layout.version
        self.errorCorrection = errorCorrection
        mask = chosen.mask
        modules = chosen.grid.modules
    }

    /// Whether the module in column `x`, row `y` is dark; (0, 0) is the top-left corner.
    ///
    /// A module outside the symbol (the quiet zone) is light.
    package func isDark(x: Int, y: Int) -> Bool {
        guard (0..<size).contains(x), (0..<size).contains(y) else { return false }
        return modules[y * size + x]
    }
}
