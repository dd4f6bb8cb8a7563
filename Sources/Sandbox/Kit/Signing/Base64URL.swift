import Foundation

/// Base64url without padding, as JWS uses it: encoding only. Decoding is StoreProof's (`StrictBase64`).
enum Base64URL {
    static func encode(_ data: Data) -> String {
        data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
