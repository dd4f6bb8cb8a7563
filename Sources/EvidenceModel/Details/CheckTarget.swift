import StrictJSON

/// The target a check ran against: its base URL and the Sandbox kind it declared.
package struct CheckTarget: Sendable, Equatable {
    /// The target's JSON keys.
    package enum Key: String, CaseIterable, Sendable { case baseUrl, kind }

    /// The base URL the check ran against.
    package var baseUrl: String?
    /// `hosted` or `emulator`, as the target declared it.
    package var kind: String?

    /// A target.
    package init(baseUrl: String, kind: String) {
        self.baseUrl = baseUrl
        self.kind = kind
    }

    /// Reads a recorded target.
    package init(json: JSONValue) {
        baseUrl = json[Key.baseUrl.rawValue]?.scalarText
        kind = json[Key.kind.rawValue]?.scalarText
    }

    /// The target as recorded.
    package var json: JSONValue { .object([Key.baseUrl.rawValue: .optional(baseUrl), Key.kind.rawValue: .optional(kind)]) }
}
