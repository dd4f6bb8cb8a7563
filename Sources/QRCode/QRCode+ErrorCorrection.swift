extension QRCode {
    /// How much of a QR code may be damaged and still read: about 7 % (L), 15 % (M), 25 % (Q) or 30 % (H) of its
    /// codewords. A higher level holds fewer bytes in the same version.
    package enum ErrorCorrection: Sendable, CaseIterable {
        /// Level L, about 7 % recoverable.
        case low
        /// Level M, about 15 % recoverable: the default.
        case medium
        /// Level Q, about 25 % recoverable.
        case quartile
        /// Level H, about 30 % recoverable.
        case high

        /// The two bits this level has in the format information (ISO/IEC 18004 table 12: L 01, M 00, Q 11, H 10).
        var formatBits: Int {
            switch self {
            case .low: 1
            case .medium: 0
            case .quartile: 3
            case .high: 2
            }
        }

        /// This level's column in the block tables (L, M, Q, H).
        var tableIndex: Int {
            switch self {
            case .low: 0
            case .medium: 1
            case .quartile: 2
            case .high: 3
            }
        }
    }
}
