/// The field that names a campaign's target within its vendor (GrooveGrow: the `project` App UUID; CherrySub:
/// the `publishableKey`, `iap_pk_…`): declared by the profile (`target`), checked here, and stored in the
/// campaign's target column (`project`). Displays and JSON label the value with `name`.
package struct TargetField: Sendable, Equatable {
    /// What a value must look like.
    package enum Shape: Sendable, Equatable {
        /// A UUID, stored lower-case.
        case uuid
        /// Non-empty text after a fixed prefix, with no whitespace.
        case prefix(String)
    }

    /// The field's name, as JSON keys and displays label the value (`project`, `publishableKey`).
    package var name: String
    /// What a value must look like.
    package var shape: Shape

    /// A field.
    package init(name: String, shape: Shape) {
        self.name = name
        self.shape = shape
    }

    /// GrooveGrow's, and the default of a profile that declares none: the project's App UUID.
    package static let project = TargetField(name: "project", shape: .uuid)

    /// `raw` as stored, or `EvidenceError.invalidValue` saying what the value must look like.
    package func validate(_ raw: String) throws -> String {
        switch shape {
        case .uuid:
            return try Validate.uuid(raw, field: name)
        case .prefix(let prefix):
            let value = raw.trimmingCharacters(in: .whitespaces)
            guard value.hasPrefix(prefix), value.count > prefix.count, !value.contains(where: \.isWhitespace) else {
                throw EvidenceError.invalidValue(field: name, value: raw, why: "must start with '\(prefix)' (the vendor's key for this app)")
            }
            return value
        }
    }

    /// The field of campaign profile `profileId` (built in), or `project` when the profile is unknown.
    package static func of(profile profileId: String) -> TargetField {
        (try? Profile.named(profileId))?.target ?? .project
    }
}
