import Checks
import Evidence
import Foundation

/// One vendor growcert certifies, reached only through its entry in `Vendors`.
///
/// The entry is the vendor's one seam above its own modules: the profile its campaigns name (`profileId`), its
/// check suite (`suite`) and that suite's pre-flight (`checkTargets`), its client (inside the pre-flight and the
/// purchase), its emulator (`startEmulator`, `emulatorPurchase`) and its demo (`runDemo`). Everything else in
/// `Services` and the CLI asks the entry and names no vendor. A new vendor adds its own files (client, checks,
/// emulator, profile, the entry in `Sources/Services/Vendors/<Vendor>/`) and one line to `Vendors.all`.
package protocol Vendor: Sendable {
    /// The id of the vendor's profile (`profiles/<id>.json`), which its campaigns name.
    var profileId: String { get }
    /// The vendor's name as people read it.
    var name: String { get }
    /// What its hosted backend is called in a sentence ("the hosted …").
    var sandboxName: String { get }
    /// Its live checks.
    var suite: any CheckSuite { get }

    /// Its pre-flight, after the vendor-neutral one (runs, check ids): the vendor's credentials, the flags its checks
    /// need off the emulator, one probe of the target (`CheckError.unreachable` when nothing answers), one customer
    /// token and one authenticated call. Nothing is recorded. Returns one target per planned run.
    func checkTargets(_ plan: [PlannedChecks], campaign: Campaign, profile: Profile, runner: CheckRunner,
                      request: CheckRunRequest, preflight: PreflightService) async throws -> [PreflightService.Target]

    /// What its emulator takes besides the port, by name (`sandbox serve` shows each as `--NAME VALUE`).
    var emulatorSettings: [EmulatorSetting] { get }
    /// Starts its emulator on 127.0.0.1 with `settings` (names from `emulatorSettings`).
    func startEmulator(port: UInt16, settings: [String: String]) throws -> RunningEmulator

    /// Whether its purchase is made for a customer QA names (else the customer is given to the checks).
    var emulatorPurchaseTakesCustomer: Bool { get }
    /// The files `emulatorPurchase` writes, in the order of `EmulatorPurchaseResult.files`.
    var emulatorPurchaseFiles: [String] { get }
    /// One emulator-signed purchase on a running emulator of this vendor, for QA to record. Only the local emulator:
    /// any other target is refused after at most one probe.
    func emulatorPurchase(_ request: EmulatorPurchaseRequest) async throws -> EmulatorPurchaseResult

    /// `growcert demo` for this vendor: its emulator in-process, every check, its signed purchases, the reports.
    func runDemo(_ demo: DemoService, dbPath: String) async throws -> DemoService.Outcome
}

/// The checks to run on one run.
package typealias PlannedChecks = (run: Run, checkIds: [String])

/// One setting a vendor's emulator takes.
package struct EmulatorSetting: Sendable, Equatable {
    /// Its name, in lower case with dashes (`bundle-id`).
    package let name: String
    /// What its value is, for help (`UUID`).
    package let value: String
    /// What it sets, for help.
    package let help: String

    /// A setting; see the properties.
    package init(name: String, value: String, help: String) {
        self.name = name
        self.value = value
        self.help = help
    }
}

/// A vendor's emulator serving on 127.0.0.1, and what a tester needs from it.
package struct RunningEmulator: Sendable {
    /// What it is called in its first printed line ("Sandbox emulator").
    package let title: String
    /// Where it listens.
    package let url: URL
    /// The campaign target it serves (the profile's target field: a project, a publishable key).
    package let target: String
    /// The app id its signed purchases carry.
    package let bundleId: String
    /// Whether it accepts only purchases of `bundleId`.
    package let acceptsOnlyItsApp: Bool
    /// The SDK version a campaign aimed at it names.
    package let sdkVersion: String
    /// What it prints, in order: label, JSON key and value. The last one is its throwaway server key.
    package let facts: [(label: String, key: String, value: String)]
    /// Its throwaway server key (for `GROWCERT_SERVER_KEY`; never stored).
    package var serverKey: String { facts.last?.value ?? "" }
    /// Stops it.
    package let stop: @Sendable () -> Void

    /// An emulator's description; see the properties.
    package init(title: String, url: URL, target: String, bundleId: String, acceptsOnlyItsApp: Bool, sdkVersion: String,
                facts: [(label: String, key: String, value: String)], stop: @escaping @Sendable () -> Void) {
        self.title = title
        self.url = url
        self.sdkVersion = sdkVersion
        self.target = target
        self.bundleId = bundleId
        self.acceptsOnlyItsApp = acceptsOnlyItsApp
        self.facts = facts
        self.stop = stop
    }
}

/// What `sandbox purchase` asks of a vendor's emulator.
package struct EmulatorPurchaseRequest: Sendable {
    /// The emulator's base URL.
    package var baseURL: String
    /// The campaign target it serves (project, publishable key).
    package var target: String
    /// The campaign's app id, when a campaign named the emulator.
    package var appId: String?
    /// The emulator's throwaway server key.
    package var serverKey: String
    /// Who buys, when the vendor's purchase takes a customer (`Vendor.emulatorPurchaseTakesCustomer`; nil: its default).
    package var customerId: String?

    /// A request; see the properties.
    package init(baseURL: String, target: String, appId: String?, serverKey: String, customerId: String?) {
        self.baseURL = baseURL
        self.target = target
        self.appId = appId
        self.serverKey = serverKey
        self.customerId = customerId
    }
}

/// One emulator-signed purchase: the files QA records, and what identifies it.
package struct EmulatorPurchaseResult: Sendable {
    /// The Sandbox's order id, when the vendor has orders.
    package var orderId: String?
    /// The store transaction id of the purchase.
    package var transactionId: String
    /// The product bought (the emulator's one product).
    package var productId: String
    /// Who bought it, when the vendor's purchase takes a customer.
    package var customerId: String?
    /// The app it was bought for.
    package var appId: String?
    /// Each file's bytes, in the order of `Vendor.emulatorPurchaseFiles`.
    package var files: [Data]

    /// A result; see the properties.
    package init(orderId: String?, transactionId: String, productId: String, customerId: String?, appId: String?, files: [Data]) {
        self.orderId = orderId
        self.transactionId = transactionId
        self.productId = productId
        self.customerId = customerId
        self.appId = appId
        self.files = files
    }
}
