/// How one version at one error-correction level splits its codewords into Reed–Solomon blocks, and how bytes
/// become the final interleaved codeword sequence (ISO/IEC 18004 7.4 to 7.6, tables 7 and 9).
struct BlockLayout {
    let version: Int
    let level: QRCode.ErrorCorrection

    /// Error-correction codewords per block, by level (L, M, Q, H), for versions 1 to 10 (table 9).
    private static let eccCodewordsPerBlock: [[Int]] = [
        [7, 10, 15, 20, 26, 18, 20, 24, 30, 18],
        [10, 16, 26, 18, 24, 16, 18, 22, 22, 26],
        [13, 22, 18, 26, 18, 24, 18, 22, 20, 24],
        [17, 28, 22, 16, 22, 28, 26, 26, 24, 28],
    ]
    /// Number of blocks, by level (L, M, Q, H), for versions 1 to 10 (table 9).
    private static let blockCounts: [[Int]] = [
        [1, 1, 1, 1, 1, 2, 2, 2, 2, 4],
        [1, 1, 1, 2, 2, 4, 4, 4, 5, 5],
        [1, 1, 2, 2, 4, 4, 6, 6, 8, 8],
        [1, 1, 2, 4, 4, 4, 5, 6, 8, 8],
    ]

    /// The smallest version (1 to `QRCode.maximumVersion`) whose data capacity holds `byteCount` bytes, or nil.
    static func smallestFitting(byteCount: Int, level: QRCode.ErrorCorrection) -> BlockLayout? {
        for version in 1...QRCode.maximumVersion {
            let layout = BlockLayout(version: version, level: level)
            if byteCount <= layout.byteCapacity { return layout }
        }
        return nil
    }

    var eccPerBlock: Int { Self.eccCodewordsPerBlock[level.tableIndex][version - 1] }
    var blockCount: Int { Self.blockCounts[level.tableIndex][version - 1] }

    /// Modules left for codewords once the function patterns, format and version areas are placed.
    var rawDataModules: Int {
        var modules = (16 * version + 128) * version + 64
        if version >= 2 {
            let alignmentCount = version / 7 + 2
            modules -= (25 * alignmentCount - 10) * alignmentCount - 55
            if version >= 7 { modules -= 36 }
        }
        return modules
    }

    var totalCodewords: Int { rawDataModules / 8 }
    var dataCodewordCount: Int { totalCodewords - eccPerBlock * blockCount }

    /// Bits of the byte-mode character count indicator: 8 up to version 9, 16 from version 10 (table 3).
    var countIndicatorBits: Int { version < 10 ? 8 : 16 }

    /// The most bytes one byte-mode segment can hold here.
    var byteCapacity: Int { (dataCodewordCount * 8 - 4 - countIndicatorBits) / 8 }

    /// The data codewords of a byte-mode segment: mode, count, the bytes, the terminator (up to four zero bits),
    /// zero bits to the codeword boundary, then the pad codewords 0xEC, 0x11 alternately. `bytes` must fit.
    func dataCodewords(for bytes: [UInt8]) -> [UInt8] {
        var bits = BitBuffer()
        bits.append(0b0100, count: 4)
        bits.append(bytes.count, count: countIndicatorBits)
        for byte in bytes { bits.append(Int(byte), count: 8) }
        let capacityBits = dataCodewordCount * 8
        bits.append(0, count: min(4, capacityBits - bits.count))
        bits.append(0, count: (8 - bits.count % 8) % 8)
        var codewords = bits.bytes
        var pad: UInt8 = 0xEC
        while codewords.count < dataCodewordCount {
            codewords.append(pad)
            pad = pad == 0xEC ? 0x11 : 0xEC
        }
        return codewords
    }

    /// Splits the data codewords into blocks (the short blocks first, each long block one codeword longer), adds
    /// each block's Reed–Solomon codewords, and interleaves: the data codewords column by column, then the
    /// error-correction codewords the same way (7.6).
    func finalMessage(dataCodewords data: [UInt8]) -> [UInt8] {
        let shortBlockCount = blockCount - totalCodewords % blockCount
        let shortBlockDataLength = totalCodewords / blockCount - eccPerBlock
        let generator = ReedSolomon.generator(degree: eccPerBlock)
        var dataBlocks: [[UInt8]] = []
        var eccBlocks: [[UInt8]] = []
        var start = 0
        for block in 0..<blockCount {
            let length = shortBlockDataLength + (block < shortBlockCount ? 0 : 1)
            let blockData = Array(data[start..<start + length])
            start += length
            dataBlocks.append(blockData)
            eccBlocks.append(ReedSolomon.remainder(of: blockData, generator: generator))
        }
        var message: [UInt8] = []
        message.reserveCapacity(totalCodewords)
        for column in 0...shortBlockDataLength {
            for block in dataBlocks where column < block.count {
                message.append(block[column])
            }
        }
        for column in 0..<eccPerBlock {
            for block in eccBlocks {
                message.append(block[column])
            }
        }
        return message
    }
}
