import Checks

/// Every vendor growcert certifies: the one list, and the one file outside a vendor's own folders that names them.
package enum Vendors {
    /// The vendors, the default (`sandbox serve`, `demo`) first.
    package static let all: [any Vendor] = [GrooveGrowVendor(), CherrySubVendor()]

    /// The vendor used when a command is given no profile.
    package static var standard: any Vendor { all[0] }

    /// The profile ids of every vendor.
    package static var profileIds: [String] { all.map(\.profileId) }

    /// The vendor whose profile is `profileId`.
    package static func vendor(for profileId: String) throws -> any Vendor {
        guard let vendor = all.first(where: { $0.profileId == profileId }) else {
            throw CheckError.noSuite(profile: profileId, known: profileIds)
        }
        return vendor
    }
}
