import StrictJSON

/// The target a check ran against: its base URL and the Sandbox kind it declared.
public struct CheckTarget: Sendable, Equatable {
    /// The target's JSON keys.
    public enum Key: String, CaseIterable, Sendable { case baseUrl, kind }

    public var baseUrl: String?
    /// `hosted` or `emulator`, as the target declared it.
    public var kind: String?

    /// A target.
    public init(baseUrl: String, kind: String) {
        self.baseUrl = baseUrl
        self.kind = kind
    }

    /// Reads a recorded target.
    public init(json: JSONValue) {
        baseUrl = json[Key.baseUrl.rawValue]?.scalarText
        kind = json[Key.kind.rawValue]?.scalarText
    }

    /// The target as recorded.
    public var json: JSONValue { .object([Key.baseUrl.rawValue: .optional(baseUrl), Key.kind.rawValue: .optional(kind)]) }
}
