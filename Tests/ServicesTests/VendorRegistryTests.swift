import Checks
import Evidence
import Testing
@testable import Services

/// The vendor registry is the one way to a vendor: every profile has its entry, every entry its profile and suite.
@Suite struct VendorRegistryTests {
    @Test("Every built-in profile has exactly one vendor entry, and every entry a profile")
    func everyProfileHasOneVendor() throws {
        let profiles = try Profile.builtIn().keys.sorted()
        #expect(Vendors.profileIds.sorted() == profiles)
        #expect(Set(Vendors.profileIds).count == Vendors.all.count, "two entries claim one profile")
    }

    @Test("Each vendor's suite checks the vendor's own profile, and lists exactly the profile's checks", arguments: Vendors.profileIds)
    func eachSuiteIsItsProfiles(_ profileId: String) throws {
        let vendor = try Vendors.vendor(for: profileId)
        #expect(vendor.suite.profileId == profileId)
        let profile = try Profile.named(profileId)
        let listed = profile.scenarios.flatMap(\.checks)
        let defined = Self.definitionIds(vendor.suite)
        #expect(Set(listed) == Set(defined), "only in the profile: \(Set(listed).subtracting(defined).sorted()); only in the suite: \(Set(defined).subtracting(listed).sorted())")
        #expect(listed.count == Set(listed).count, "a check is listed by two scenarios")
        #expect(defined.count == Set(defined).count, "a check is defined twice")
    }

    static func definitionIds<S: CheckSuite>(_ suite: S) -> [String] { suite.definitions.map(\.id) }

    @Test("A profile without a vendor is refused by name, with the known ones")
    func anUnknownProfileIsRefused() {
        #expect(throws: CheckError.noSuite(profile: "applemusic", known: ["groovegrow", "cherrysub"])) { try Vendors.vendor(for: "applemusic") }
    }

    @Test("Every vendor's emulator settings have distinct names, and each entry names the files its purchase writes")
    func emulatorSettingsAreWellFormed() {
        for vendor in Vendors.all {
            let names = vendor.emulatorSettings.map(\.name)
            #expect(Set(names).count == names.count, "\(vendor.name) repeats a setting")
            #expect(names.allSatisfy { $0.allSatisfy { $0.isLowercase || $0 == "-" } }, "\(names)")
            #expect(!vendor.emulatorPurchaseFiles.isEmpty && vendor.emulatorPurchaseFiles[0] == "transaction.jws")
        }
    }
}
