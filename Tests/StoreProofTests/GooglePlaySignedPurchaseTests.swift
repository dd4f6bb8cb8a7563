import Foundation
import Testing

@testable import StoreProof

/// Play Billing signed purchases checked against outside vectors (go-iap, mokelab; see Fixtures/ORIGIN.md).
@Suite struct GooglePlaySignedPurchaseTests {
    static func fixture(_ name: String) throws -> Data {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/googleplay/" + name, withExtension: nil))
        return try Data(contentsOf: url)
    }

    static func goIAPKey() throws -> GooglePlayLicenseKey { try GooglePlayLicenseKey(fileContents: try fixture("go-iap-publickey.b64")) }

    static func refusal(json: Data, signature: Data, key: GooglePlayLicenseKey, package: String = "my.package") -> StoreProofError? {
        do {
            _ = try GooglePlaySignedPurchase.verify(json: json, signatureFile: signature, key: key, expectedPackage: package)
            return nil
        } catch {
            return error as? StoreProofError
        }
    }

    @Test func theGoIAPVectorVerifiesWithItsLicenseKey() throws {
        let purchase = try GooglePlaySignedPurchase.verify(json: try Self.fixture("go-iap-originalJson.json"),
                                                           signatureFile: try Self.fixture("go-iap-signature.b64"),
                                                           key: try Self.goIAPKey(), expectedPackage: "my.package")
        #expect(purchase.orderId == "GPA.xxxx-xxxx-xxxx-xxxxx")
        #expect(purchase.productId == "myproduct")
        #expect(purchase.purchaseToken == "some-token")
        #expect(purchase.purchaseTimeMillis == "1437564796303")
        #expect(purchase.purchaseTime == "2015-07-22T11:33:16.303Z")
        #expect(purchase.purchaseState == "purchased")
    }

    @Test func aPEMLicenseKeyIsTheSameKeyAsTheBase64One() throws {
        let pem = try GooglePlayLicenseKey(fileContents: try Self.fixture("go-iap-publickey.pem"))
        #expect(pem == (try Self.goIAPKey()))
        #expect(pem.base64 == String(decoding: try Self.fixture("go-iap-publickey.b64"), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test func oneChangedByteIsRefused() throws {
        var json = try Self.fixture("go-iap-originalJson.json")
        let index = try #require(json.firstIndex(of: UInt8(ascii: "1")))
        json[index] = UInt8(ascii: "2")
        let error = Self.refusal(json: json, signature: try Self.fixture("go-iap-signature.b64"), key: try Self.goIAPKey())
        #expect(error == .googleSignatureInvalid)
        #expect(error?.description == "the Google Play signature does not verify over the purchase JSON with the campaign's Play license key (RSASSA-PKCS1-v1_5, SHA-1): the JSON was changed, or another app's key signed it")
    }

    @Test func anotherKeyIsRefused() throws {
        let other = try GooglePlayLicenseKey(fileContents: try Self.fixture("mokelab-publickey.b64"))
        let error = Self.refusal(json: try Self.fixture("go-iap-originalJson.json"), signature: try Self.fixture("go-iap-signature.b64"), key: other)
        #expect(error == .googleSignatureInvalid)
    }

    @Test func aTrailingNewlineAddedToTheSignedBytesIsNamed() throws {
        let json = try Self.fixture("go-iap-originalJson.json") + Data("\n".utf8)
        let error = Self.refusal(json: json, signature: try Self.fixture("go-iap-signature.b64"), key: try Self.goIAPKey())
        #expect(error == .googleTrailingNewline(added: true))
        #expect(error?.description == "the Google Play signature verifies only without the line ending at the end of the purchase JSON: a trailing newline is not the signed bytes; save Purchase.getOriginalJson() exactly, with no newline added")
    }

    @Test func theMokelabNegativeVectorSignedWithANewlineIsNamedWhenTheNewlineIsMissing() throws {
        let key = try GooglePlayLicenseKey(fileContents: try Self.fixture("mokelab-publickey.b64"))
        let signature = try Self.fixture("mokelab-ok_signature.b64")
        let withLF = try GooglePlaySignedPurchase.verify(json: try Self.fixture("mokelab-ok_originalJson_withLF.json"), signatureFile: signature,
                                                         key: key, expectedPackage: "com.mokelab.dummyApp")
        #expect(withLF.originalJson.hasSuffix("}\n"))
        let error = Self.refusal(json: try Self.fixture("mokelab-ok_originalJson.json"), signature: signature, key: key, package: "com.mokelab.dummyApp")
        #expect(error == .googleTrailingNewline(added: false))
    }

    @Test func anotherPackageIsRefused() throws {
        let error = Self.refusal(json: try Self.fixture("go-iap-originalJson.json"), signature: try Self.fixture("go-iap-signature.b64"),
                                 key: try Self.goIAPKey(), package: "com.example.app")
        #expect(error == .googlePackageMismatch(expected: "com.example.app", found: "my.package"))
        #expect(error?.description == "the signed purchase's packageName 'my.package' differs from the campaign's app id 'com.example.app'; record a purchase from the app under test")
    }

    @Test func aKeyFileThatIsNotAKeyIsRefused() throws {
        #expect(throws: StoreProofError.googleLicenseKeyUnreadable(reason: "it is not an RSA public key (X.509 SubjectPublicKeyInfo) of at least 1024 bits")) {
            try GooglePlayLicenseKey(fileContents: Data("aGVsbG8gd29ybGQ=".utf8))
        }
    }
}
