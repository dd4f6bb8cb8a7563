/// Why bytes could not be made into a QR code.
package enum QRCodeError: Error, Equatable, CustomStringConvertible {
    /// The bytes do not fit the largest version this encoder makes (`QRCode.maximumVersion`) at the chosen level;
    /// `max` is the most that fits there.
    case tooLong(bytes: Int, max: Int)

    /// The message a user reads.
    package var description: String {
        switch self {
        case .tooLong(let bytes, let max):
            "Cannot make a QR code of \(bytes) bytes: at this error correction level a QR code of version "
                + "\(QRCode.maximumVersion) or lower holds at most \(max) bytes. Encode a shorter text or choose a "
                + "lower error correction level."
        }
    }
}
