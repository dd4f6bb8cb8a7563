import Foundation

// Reading a compact JWS without verifying it, with the same strict decoding as `verify`: for a backend that must
// sort a token before trusting it (a StoreKit Testing transaction is refused as local before its chain is judged).
extension JWSVerifier {
    /// The payload's `environment` string, read WITHOUT verifying the signature; nil when the token is not a
    /// canonical compact JWS or has no string `environment`.
    ///
    /// Never base a trust decision on it alone: only `verify` says who signed the token.
    package static func unverifiedEnvironment(of jws: String) -> String? {
        guard jws.utf8.count <= maximumTokenBytes else { return nil }
        let segments = jws.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3, let bytes = StrictBase64.decode(segments[1].utf8, alphabet: .url),
              let payload = try? jsonObject(bytes, part: "payload") else { return nil }
        return payload.objectValue?["environment"]?.stringValue
    }

    /// The DER of the token's `x5c` leaf certificate, read WITHOUT verifying anything; nil when there is none.
    ///
    /// After `verify` succeeded it names the certificate whose key made the signature.
    package static func unverifiedLeafCertificateDER(of jws: String) -> Data? {
        guard jws.utf8.count <= maximumTokenBytes else { return nil }
        let segments = jws.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3, let bytes = StrictBase64.decode(segments[0].utf8, alphabet: .url),
              let header = try? jsonObject(bytes, part: "header"),
              let leaf = try? certificates(header.objectValue?["x5c"]).first else { return nil }
        return Data(leaf.der)
    }
}
