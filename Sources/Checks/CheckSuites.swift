/// Every check suite growcert has, one per profile.
public enum CheckSuites {
    /// The suites, in no particular order.
    public static let all: [any CheckSuite] = [GrooveGrowSuite(), CherrySubSuite()]

    /// The suite of profile `profileId`.
    public static func suite(for profileId: String) throws -> any CheckSuite {
        guard let suite = all.first(where: { $0.profileId == profileId }) else {
            throw CheckError.noSuite(profile: profileId, known: all.map(\.profileId))
        }
        return suite
    }
}
