/// A sequence of bits, most significant first, that packs into bytes.
struct BitBuffer {
    private(set) var bits: [Bool] = []

    var count: Int { bits.count }

    /// Appends the lowest `count` bits of `value`, most significant first.
    mutating func append(_ value: Int, count: Int) {
        for shift in stride(from: count - 1, through: 0, by: -1) {
            bits.append((value >> shift) & 1 == 1)
        }
    }

    /// The bits as bytes; a last partial byte is filled with zero bits.
    var bytes: [UInt8] {
        var result = [UInt8](repeating: 0, count: (bits.count + 7) / 8)
        for (index, bit) in bits.enumerated() where bit {
            result[index / 8] |= 0x80 >> UInt8(index % 8)
        }
        return result
    }
}
