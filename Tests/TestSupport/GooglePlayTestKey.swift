import Foundation

/// A throw-away RSA 2048 key made with the `openssl` command, playing an app's Google Play license key: it signs
/// purchase JSON as Play Billing does (RSASSA-PKCS1-v1_5 with SHA-1, base64), and its public half is the license key
/// in the format Play Console shows (base64 DER SubjectPublicKeyInfo). Trusted only where a test records it.
public struct GooglePlayTestKey: Sendable {
    public let directory: URL
    /// The license key file's contents: base64 of the DER SubjectPublicKeyInfo, as Play Console shows it.
    public let licenseKeyBase64: String

    public static func make() throws -> GooglePlayTestKey {
        let directory = try supportTemporaryDirectory()
        _ = try openssl(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", "play.key"], in: directory)
        let der = try openssl(["pkey", "-in", "play.key", "-pubout", "-outform", "DER"], in: directory)
        return GooglePlayTestKey(directory: directory, licenseKeyBase64: der.base64EncodedString())
    }

    /// The base64 signature of exactly `json`'s bytes, as `Purchase.getSignature()` returns it.
    public func sign(_ json: Data) throws -> String {
        try openssl(["dgst", "-sha1", "-sign", "play.key"], in: directory, input: json).base64EncodedString()
    }

    /// A purchase's `getOriginalJson()` with these fields, in Play Billing's key order.
    public static func purchaseJSON(orderId: String, packageName: String, productId: String, purchaseTime: Int64, purchaseState: Int = 0,
                                    purchaseToken: String, obfuscatedAccountId: String? = nil) -> Data {
        var text = #"{"orderId":"\#(orderId)","packageName":"\#(packageName)","productId":"\#(productId)","purchaseTime":\#(purchaseTime),"purchaseState":\#(purchaseState),"purchaseToken":"\#(purchaseToken)""#
        if let obfuscatedAccountId { text += #","obfuscatedAccountId":"\#(obfuscatedAccountId)""# }
        text += #","quantity":1,"acknowledged":false}"#
        return Data(text.utf8)
    }
}
