/// The square of modules being built: the function patterns (ISO/IEC 18004 6.3), the codeword placement (7.7),
/// the data masks (7.8.2), and the format and version information (7.9, 7.10).
///
/// Until `drawFormatInformation` the format and version areas and the dark module are reserved but light, which is
/// how the masks are scored.
struct ModuleGrid {
    let version: Int
    let size: Int
    /// Row-major: module (x, y) is at `y * size + x`. True is dark.
    private(set) var modules: [Bool]
    /// The modules no codeword or mask may touch: finders, separators, timing, alignment, format and version areas.
    private var isFunction: [Bool]

    /// Alignment pattern centre coordinates for versions 2 to 10 (annex E).
    private static let alignmentCentres: [[Int]] = [
        [], [6, 18], [6, 22], [6, 26], [6, 30], [6, 34], [6, 22, 38], [6, 24, 42], [6, 26, 46], [6, 28, 50],
    ]

    init(version: Int) {
        self.version = version
        size = 17 + 4 * version
        modules = [Bool](repeating: false, count: size * size)
        isFunction = [Bool](repeating: false, count: size * size)
        drawFunctionPatterns()
    }

    func isDark(x: Int, y: Int) -> Bool { modules[y * size + x] }

    private mutating func set(x: Int, y: Int, dark: Bool) {
        modules[y * size + x] = dark
        isFunction[y * size + x] = true
    }

    private mutating func drawFunctionPatterns() {
        for index in 0..<size {
            set(x: 6, y: index, dark: index % 2 == 0)
            set(x: index, y: 6, dark: index % 2 == 0)
        }
        drawFinder(centreX: 3, centreY: 3)
        drawFinder(centreX: size - 4, centreY: 3)
        drawFinder(centreX: 3, centreY: size - 4)

        let centres = Self.alignmentCentres[version - 1]
        let last = centres.count - 1
        for (i, x) in centres.enumerated() {
            for (j, y) in centres.enumerated() {
                let overlapsFinder = (i == 0 && j == 0) || (i == 0 && j == last) || (i == last && j == 0)
                if !overlapsFinder { drawAlignment(centreX: x, centreY: y) }
            }
        }

        // Reserve the format areas (both copies and the dark module) and the version areas, light for now.
        for index in 0..<9 {
            set(x: 8, y: index, dark: index == 6)
            set(x: index, y: 8, dark: index == 6)
        }
        for index in 0..<8 {
            set(x: size - 1 - index, y: 8, dark: false)
            set(x: 8, y: size - 1 - index, dark: false)
        }
        if version >= 7 {
            for a in 0..<6 {
                for b in size - 11..<size - 8 {
                    set(x: b, y: a, dark: false)
                    set(x: a, y: b, dark: false)
                }
            }
        }
    }

    /// A 7×7 finder with its light separator, clipped at the symbol's edge.
    private mutating func drawFinder(centreX: Int, centreY: Int) {
        for dy in -4...4 {
            for dx in -4...4 {
                let x = centreX + dx
                let y = centreY + dy
                guard (0..<size).contains(x), (0..<size).contains(y) else { continue }
                let distance = max(abs(dx), abs(dy))
                set(x: x, y: y, dark: distance != 2 && distance != 4)
            }
        }
    }

    private mutating func drawAlignment(centreX: Int, centreY: Int) {
        for dy in -2...2 {
            for dx in -2...2 {
                set(x: centreX + dx, y: centreY + dy, dark: max(abs(dx), abs(dy)) != 1)
            }
        }
    }

    /// Places the codewords' bits, most significant first, in two-module columns from the right, upwards and
    /// downwards in turn, skipping function modules and the vertical timing column; remainder modules stay light.
    mutating func place(codewords: [UInt8]) {
        let bitCount = codewords.count * 8
        var bitIndex = 0
        var right = size - 1
        while right >= 1 {
            if right == 6 { right = 5 }
            let upward = (right + 1) & 2 == 0
            for vertical in 0..<size {
                let y = upward ? size - 1 - vertical : vertical
                for x in [right, right - 1] where !isFunction[y * size + x] && bitIndex < bitCount {
                    let byte = codewords[bitIndex / 8]
                    modules[y * size + x] = (byte >> UInt8(7 - bitIndex % 8)) & 1 == 1
                    bitIndex += 1
                }
            }
            right -= 2
        }
    }

    /// Flips every non-function module where data mask pattern `mask` (0 to 7, table 10) holds.
    mutating func applyMask(_ mask: Int) {
        for y in 0..<size {
            for x in 0..<size where !isFunction[y * size + x] {
                let flips: Bool
                switch mask {
                case 0: flips = (x + y) % 2 == 0
                case 1: flips = y % 2 == 0
                case 2: flips = x % 3 == 0
                case 3: flips = (x + y) % 3 == 0
                case 4: flips = (x / 3 + y / 2) % 2 == 0
                case 5: flips = x * y % 2 + x * y % 3 == 0
                case 6: flips = (x * y % 2 + x * y % 3) % 2 == 0
                default: flips = ((x + y) % 2 + x * y % 3) % 2 == 0
                }
                if flips { modules[y * size + x].toggle() }
            }
        }
    }

    /// Draws both copies of the 15 format bits (level and mask, BCH(15,5), XOR 0x5412) and the dark module.
    mutating func drawFormatInformation(level: QRCode.ErrorCorrection, mask: Int) {
        let data = level.formatBits << 3 | mask
        var remainder = data
        for _ in 0..<10 { remainder = (remainder << 1) ^ ((remainder >> 9) * 0x537) }
        let bits = (data << 10 | remainder) ^ 0x5412
        func bit(_ index: Int) -> Bool { (bits >> index) & 1 == 1 }

        for index in 0...5 { set(x: 8, y: index, dark: bit(index)) }
        set(x: 8, y: 7, dark: bit(6))
        set(x: 8, y: 8, dark: bit(7))
        set(x: 7, y: 8, dark: bit(8))
        for index in 9..<15 { set(x: 14 - index, y: 8, dark: bit(index)) }

        for index in 0..<8 { set(x: size - 1 - index, y: 8, dark: bit(index)) }
        for index in 8..<15 { set(x: 8, y: size - 15 + index, dark: bit(index)) }
        set(x: 8, y: size - 8, dark: true)
    }

    /// Draws both copies of the 18 version bits (version, BCH(18,6)) from version 7 on.
    mutating func drawVersionInformation() {
        guard version >= 7 else { return }
        var remainder = version
        for _ in 0..<12 { remainder = (remainder << 1) ^ ((remainder >> 11) * 0x1F25) }
        let bits = version << 12 | remainder
        for index in 0..<18 {
            let dark = (bits >> index) & 1 == 1
            let a = size - 11 + index % 3
            let b = index / 3
            set(x: a, y: b, dark: dark)
            set(x: b, y: a, dark: dark)
        }
    }
}
