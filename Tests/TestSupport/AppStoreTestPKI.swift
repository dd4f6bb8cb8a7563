import Foundation
import Synchronization

/// Why a test-support helper could not do its job.
public struct SupportFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// A fresh temporary directory for one helper's files, removed when the test process exits: the PKIs and keys
/// the helpers make are shared by many tests (`static let`), and each run of the suite left hundreds of them,
/// private keys included, in the temporary directory.
public func supportTemporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("growcert-support-" + UUID().uuidString, isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    SupportDirectories.made.withLock { made in
        if made.isEmpty { atexit { SupportDirectories.removeAll() } }
        made.append(url)
    }
    return url
}

/// The directories `supportTemporaryDirectory` made in this process.
enum SupportDirectories {
    static let made = Mutex<[URL]>([])

    static func removeAll() {
        for url in made.withLock({ $0 }) { try? FileManager.default.removeItem(at: url) }
    }
}

/// A throw-away App Store-shaped PKI made with the `openssl` command: a root, an intermediate carrying Apple's
/// WWDR marker extension (1.2.840.113635.100.6.2.1) and a leaf carrying the receipt-signing marker
/// (1.2.840.113635.100.6.11.1), valid from now for 30 days; it signs StoreKit 2 transactions (ES256 JWS with `x5c`).
///
/// Trusted only where a test injects `rootDER` (a test `JWSVerifier`, the emulator's test store root).
public struct AppStoreTestPKI: Sendable {
    public let directory: URL
    /// The root certificate, DER: the trust anchor a test injects.
    public let rootDER: Data
    let x5c: [String]

    public static func make() throws -> AppStoreTestPKI {
        let directory = try supportTemporaryDirectory()
        func run(_ arguments: [String]) throws -> Data { try openssl(arguments, in: directory) }
        let newKey = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]
        try "basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\nsubjectKeyIdentifier=hash\n"
            .write(to: directory.appendingPathComponent("root.cnf"), atomically: true, encoding: .utf8)
        try "basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\nsubjectKeyIdentifier=hash\nauthorityKeyIdentifier=keyid\n1.2.840.113635.100.6.2.1=DER:05:00\n"
            .write(to: directory.appendingPathComponent("intermediate.cnf"), atomically: true, encoding: .utf8)
        try "basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\nauthorityKeyIdentifier=keyid\n1.2.840.113635.100.6.11.1=DER:05:00\n"
            .write(to: directory.appendingPathComponent("leaf.cnf"), atomically: true, encoding: .utf8)
        _ = try run(["req"] + newKey + ["-keyout", "root.key", "-out", "root.csr", "-subj", "/CN=growcert e2e App Store Test Root/O=growcert tests"])
        _ = try run(["x509", "-req", "-in", "root.csr", "-signkey", "root.key", "-out", "root.pem", "-days", "30", "-extfile", "root.cnf"])
        _ = try run(["req"] + newKey + ["-keyout", "intermediate.key", "-out", "intermediate.csr", "-subj", "/CN=growcert e2e Test WWDR/O=growcert tests"])
        _ = try run(["x509", "-req", "-in", "intermediate.csr", "-CA", "root.pem", "-CAkey", "root.key", "-set_serial", "2",
                     "-out", "intermediate.pem", "-days", "30", "-extfile", "intermediate.cnf"])
        _ = try run(["req"] + newKey + ["-keyout", "leaf.key", "-out", "leaf.csr", "-subj", "/CN=growcert e2e Test Receipt Signing/O=growcert tests"])
        _ = try run(["x509", "-req", "-in", "leaf.csr", "-CA", "intermediate.pem", "-CAkey", "intermediate.key", "-set_serial", "3",
                     "-out", "leaf.pem", "-days", "30", "-extfile", "leaf.cnf"])
        let der = try ["leaf", "intermediate", "root"].map { try run(["x509", "-in", "\($0).pem", "-outform", "der"]) }
        return AppStoreTestPKI(directory: directory, rootDER: der[2], x5c: der.map { $0.base64EncodedString() })
    }

    /// A StoreKit 2 transaction, as `Transaction.jwsRepresentation` gives it, signed by the leaf.
    ///
    /// `originalTransactionId` defaults to `transactionId` (a first purchase; another one makes a renewal); `price`
    /// is in thousandths of USD, nil leaves `price` and `currency` out; `expiresDate` is written when given.
    public func signTransaction(transactionId: String, bundleId: String, productId: String, purchaseDate: Date,
                                signedDate: Date = Date(), environment: String = "Sandbox",
                                originalTransactionId: String? = nil, price: Int? = 4990, expiresDate: Date? = nil,
                                revocationDate: Date? = nil) throws -> String {
        func ms(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded(.down)) }
        let priced = price.map { ",\"price\":\($0),\"currency\":\"USD\"" } ?? ""
        let expires = (expiresDate.map { ",\"expiresDate\":\(ms($0))" } ?? "") + (revocationDate.map { ",\"revocationDate\":\(ms($0)),\"revocationReason\":0" } ?? "")
        let payload = """
            {"transactionId":"\(transactionId)","originalTransactionId":"\(originalTransactionId ?? transactionId)","bundleId":"\(bundleId)",\
            "productId":"\(productId)","type":"Auto-Renewable Subscription","purchaseDate":\(ms(purchaseDate)),\
            "signedDate":\(ms(signedDate)),"environment":"\(environment)","storefront":"USA"\(priced)\(expires)}
            """
        return try sign(payload: payload)
    }

    /// An App Store Server Notification V2 `signedPayload` of `type` for `bundleId`, signed by the leaf, carrying
    /// `signedTransactionInfo` when given (`TEST` notifications carry none).
    public func signNotification(type: String, subtype: String? = nil, bundleId: String, signedTransactionInfo: String?,
                                 environment: String = "Sandbox", signedDate: Date = Date()) throws -> String {
        let ms = Int64((signedDate.timeIntervalSince1970 * 1000).rounded(.down))
        let transaction = signedTransactionInfo.map { ",\"signedTransactionInfo\":\"\($0)\"" } ?? ""
        let sub = subtype.map { ",\"subtype\":\"\($0)\"" } ?? ""
        let payload = """
            {"notificationType":"\(type)"\(sub),"notificationUUID":"\(UUID().uuidString.lowercased())","version":"2.0","signedDate":\(ms),\
            "data":{"appAppleId":1234567890,"bundleId":"\(bundleId)","bundleVersion":"311","environment":"\(environment)"\(transaction)}}
            """
        return try sign(payload: payload)
    }

    /// `payload` as a compact JWS signed by the leaf, with the test chain as `x5c`.
    public func sign(payload: String) throws -> String {
        let header = "{\"alg\":\"ES256\",\"x5c\":[\(x5c.map { "\"\($0)\"" }.joined(separator: ","))]}"
        let input = Self.base64URL(Data(header.utf8)) + "." + Self.base64URL(Data(payload.utf8))
        let message = directory.appendingPathComponent("message-\(UUID().uuidString)")
        try Data(input.utf8).write(to: message)
        let der = try openssl(["dgst", "-sha256", "-sign", "leaf.key", message.lastPathComponent], in: directory)
        return input + "." + Self.base64URL(try Self.rawSignature(der: [UInt8](der)))
    }

    /// ECDSA-Sig-Value (DER `SEQUENCE { r INTEGER, s INTEGER }`) as JWS's 64-byte r‖s.
    static func rawSignature(der: [UInt8]) throws -> Data {
        var index = 0
        func byte() throws -> UInt8 {
            guard index < der.count else { throw SupportFailure("truncated ECDSA signature") }
            defer { index += 1 }
            return der[index]
        }
        func length() throws -> Int {
            let first = try byte()
            guard first & 0x80 != 0 else { return Int(first) }
            var value = 0
            for _ in 0..<Int(first & 0x7F) { value = value << 8 | Int(try byte()) }
            return value
        }
        guard try byte() == 0x30 else { throw SupportFailure("ECDSA signature is not a SEQUENCE") }
        _ = try length()
        var raw = Data()
        for _ in 0..<2 {
            guard try byte() == 0x02 else { throw SupportFailure("ECDSA signature part is not an INTEGER") }
            let count = try length()
            guard index + count <= der.count else { throw SupportFailure("truncated ECDSA signature") }
            var value = Array(der[index..<(index + count)].drop { $0 == 0 })
            index += count
            guard value.count <= 32 else { throw SupportFailure("ECDSA integer longer than 32 bytes") }
            value = [UInt8](repeating: 0, count: 32 - value.count) + value
            raw.append(contentsOf: value)
        }
        return raw
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
