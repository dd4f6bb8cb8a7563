/// The name of something a scenario requires besides its checks, as a profile's `requires` lists it.
///
/// A profile names requirements; `Reports/Verdicts/Requirements` judges each one with the evaluator
/// registered under its id. The constants are the ids growcert's evaluators judge today.
package struct RequirementID: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The id as a profile spells it (`device`).
    package var rawValue: String

    package init(rawValue: String) { self.rawValue = rawValue }
    package init(stringLiteral value: String) { rawValue = value }

    package var description: String { rawValue }

    /// The run names a recorded device.
    package static let device: RequirementID = "device"
    /// That device is a physical device, not a simulator or emulator.
    package static let physicalDevice: RequirementID = "physicalDevice"
    /// The run names a store sandbox account.
    package static let storeAccount: RequirementID = "storeAccount"
    /// A store transaction that certifies: provenance, the campaign's bundle, fresh, single-use.
    package static let storeTransaction: RequirementID = "storeTransaction"
    /// The vendor's acceptance of that very transaction (GrooveGrow: the server receipt of its order).
    package static let serverReceipt: RequirementID = "serverReceipt"
    /// That transaction is an auto-renewable subscription.
    package static let autoRenewable: RequirementID = "autoRenewable"
    /// The store itself signed the refund of that transaction (an App Store REFUND notification, or the signed
    /// transaction with its `revocationDate`).
    package static let storeRefund: RequirementID = "storeRefund"
}
