/// One header field as sent or received.
package struct HTTPHeader: Sendable, Hashable, Codable {
    /// The field name, spelled as given.
    package var name: String
    /// The field value.
    package var value: String
    /// A field as given; the name keeps its spelling.
    package init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// Header fields in their original order, looked up case-insensitively.
///
/// HTTP field names are case-insensitive and servers (and HTTP libraries on
/// different platforms) spell them differently, so every lookup ignores case.
package struct HTTPHeaders: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// The fields in order.
    package private(set) var fields: [HTTPHeader]

    /// Creates headers from fields, keeping their order.
    package init(_ fields: [HTTPHeader] = []) { self.fields = fields }

    /// Creates headers from literal pairs, keeping their order.
    package init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { HTTPHeader(name: $0.0, value: $0.1) }
    }

    /// The first value of the field `name`, whatever its case; nil when absent.
    ///
    /// Setting replaces every field of that name (nil removes them).
    package subscript(name: String) -> String? {
        get { fields.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value }
        set {
            let index = fields.firstIndex { $0.name.caseInsensitiveCompare(name) == .orderedSame }
            fields.removeAll { $0.name.caseInsensitiveCompare(name) == .orderedSame }
            if let newValue {
                fields.insert(HTTPHeader(name: name, value: newValue), at: index ?? fields.count)
            }
        }
    }

    /// Appends a field without replacing existing ones of the same name.
    package mutating func add(name: String, value: String) {
        fields.append(HTTPHeader(name: name, value: value))
    }

    /// Whether a field named `name` is present, whatever its case.
    package func contains(_ name: String) -> Bool { self[name] != nil }

    /// Iterates the fields in order.
    package func makeIterator() -> IndexingIterator<[HTTPHeader]> { fields.makeIterator() }
}

extension HTTPHeaders {
    /// Whether `value` is printable ASCII without CR/LF, safe to put in a header.
    package static func isSafeValue(_ value: String) -> Bool {
        value.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value < 0x7f }
    }
}
