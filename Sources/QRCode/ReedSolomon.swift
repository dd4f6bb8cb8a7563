/// Reed–Solomon error correction over GF(256) with the QR code's field polynomial x⁸ + x⁴ + x³ + x² + 1 (0x11D)
/// and generator roots α⁰ … α^(n−1) (ISO/IEC 18004 7.5.2).
enum ReedSolomon {
    /// The coefficients of the monic generator polynomial of `degree`, highest power first, without the leading 1.
    static func generator(degree: Int) -> [UInt8] {
        var coefficients = [UInt8](repeating: 0, count: degree)
        coefficients[degree - 1] = 1
        var root: UInt8 = 1
        for _ in 0..<degree {
            // Multiply by (x − root).
            for index in 0..<degree {
                coefficients[index] = multiply(coefficients[index], root)
                if index + 1 < degree {
                    coefficients[index] ^= coefficients[index + 1]
                }
            }
            root = multiply(root, 0x02)
        }
        return coefficients
    }

    /// The error-correction codewords of `data`: the remainder of data·x^n divided by the generator.
    static func remainder(of data: [UInt8], generator: [UInt8]) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: generator.count)
        for byte in data {
            let factor = byte ^ result[0]
            result.removeFirst()
            result.append(0)
            for index in 0..<generator.count {
                result[index] ^= multiply(generator[index], factor)
            }
        }
        return result
    }

    /// The product of two field elements (Russian peasant multiplication modulo 0x11D).
    static func multiply(_ lhs: UInt8, _ rhs: UInt8) -> UInt8 {
        var product = 0
        for bit in stride(from: 7, through: 0, by: -1) {
            product = (product << 1) ^ ((product >> 7) * 0x11D)
            product ^= Int((rhs >> UInt8(bit)) & 1) * Int(lhs)
        }
        return UInt8(product & 0xFF)
    }
}
