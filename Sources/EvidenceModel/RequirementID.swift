/// The name of something a scenario requires besides its checks, as a profile's `requires` lists it.
///
/// A profile names requirements; `Reports/Verdicts/Requirements` judges each one with the evaluator
/// registered under its id. The constants are the ids growcert's evaluators judge today.
public struct RequirementID: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    public var rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }

    public var description: String { rawValue }

    /// The run names a recorded device.
    public static let device: RequirementID = "device"
    /// That device is a physical device, not a simulator or emulator.
    public static let physicalDevice: RequirementID = "physicalDevice"
    /// The run names a store sandbox account.
    public static let storeAccount: RequirementID = "storeAccount"
    /// A store transaction that certifies: provenance, the campaign's bundle, fresh, single-use.
    public static let storeTransaction: RequirementID = "storeTransaction"
    /// The vendor's acceptance of that very transaction (GrooveGrow: the server receipt of its order).
    public static let serverReceipt: RequirementID = "serverReceipt"
    /// That transaction is an auto-renewable subscription.
    public static let autoRenewable: RequirementID = "autoRenewable"
    /// The store itself signed the refund of that transaction (an App Store REFUND notification, or the signed
    /// transaction with its `revocationDate`).
    public static let storeRefund: RequirementID = "storeRefund"
}
