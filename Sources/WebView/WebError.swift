/// Why the web view or a share link could not be served or made. Words without flags: the CLI adds its own.
package enum WebError: Error, CustomStringConvertible, Equatable, Sendable {
    /// `0.0.0.0` names no address a browser or phone can use.
    case unspecifiedAddress
    /// The address is not an IPv4 address, or the port is taken.
    case cannotListen(address: String, port: UInt16, reason: String)
    /// No web view of this database is running (for a share link).
    case noServer(database: String)
    /// The running web view refused or could not answer.
    case serverRefused(String)
    /// An expiry that is not a whole number of minutes or hours within the allowed range.
    case badExpiry(String)

    package var description: String {
        switch self {
        case .unspecifiedAddress:
            return "0.0.0.0 is not an address a browser or a phone can open. Bind the one address to serve on, e.g. the machine's address on the test Wi-Fi."
        case .cannotListen(let address, let port, let reason):
            return "Cannot listen on \(address) port \(port): \(reason)."
        case .noServer(let database):
            return "No web view of '\(database)' is running on this machine, so there is nothing to share the run through. Start one for this database, then share again."
        case .serverRefused(let message):
            return message
        case .badExpiry(let text):
            return "Expiry '\(text)' is not a duration from 1m to 24h: write minutes or hours, e.g. 30m or 2h."
        }
    }

    /// `text` (`30m`, `2h`) in seconds, from 1 minute to 24 hours.
    package static func expirySeconds(_ text: String) throws -> Int {
        guard let unit = text.last, let n = Int(text.dropLast()), n > 0, n <= 24 * 60 else { throw WebError.badExpiry(text) }
        let seconds: Int
        switch unit {
        case "m": seconds = n * 60
        case "h": seconds = n * 3600
        default: throw WebError.badExpiry(text)
        }
        guard seconds <= 24 * 3600 else { throw WebError.badExpiry(text) }
        return seconds
    }
}
