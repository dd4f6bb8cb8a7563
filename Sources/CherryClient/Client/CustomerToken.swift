import Foundation
import HTTPCore

/// A customer token the app's broker issued: bound to one app user and one publishable key.
///
/// Its description and reflection never show the token.
package struct CustomerToken: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The opaque bearer value.
    package let customerToken: String
    /// The id the broker revokes it by.
    package let tokenId: String
    /// The app user it is bound to.
    package let appUserId: String
    /// When it stops working.
    package let expiresAt: Date

    /// A token from its parts.
    package init(customerToken: String, tokenId: String, appUserId: String, expiresAt: Date) {
        self.customerToken = customerToken
        self.tokenId = tokenId
        self.appUserId = appUserId
        self.expiresAt = expiresAt
    }

    /// The token of a broker's answer; throws `invalidResponse` when `expiresAt` is not an RFC 3339 time.
    package init(_ issued: CherryIssuedToken) throws {
        guard let expiresAt = CherryWire.parseTimestamp(issued.expiresAt) else {
            throw CherryClientError.invalidResponse("the token's expiresAt '\(issued.expiresAt.prefix(40))' is not an RFC 3339 time.")
        }
        self.init(customerToken: issued.customerToken, tokenId: issued.tokenId, appUserId: issued.appUserId, expiresAt: expiresAt)
    }

    /// `CustomerToken(tok_1 for u_1001, <redacted>)`.
    package var description: String { "CustomerToken(\(tokenId) for \(appUserId), \(Redactor.placeholder))" }
    /// As `description`.
    package var debugDescription: String { description }
    /// Reflection shows the ids and expiry, never the token.
    package var customMirror: Mirror {
        Mirror(self, children: ["tokenId": tokenId, "appUserId": appUserId, "expiresAt": expiresAt], displayStyle: .struct)
    }
}
