/// Turns Mustache source into `MustacheNode`s.
///
/// Three passes over UTF-8 bytes: scan tags (applying set-delimiter tags as
/// they come), mark standalone tags and trim their lines, then build the
/// section tree with an explicit stack. Nothing recurses, so hostile nesting
/// cannot exhaust the call stack; nesting is bounded by
/// `MustacheLimits.maximumSectionNesting`.
struct MustacheParser {
    private enum Kind: Equatable {
        case text
        case variable(escaped: Bool)
        case sectionOpen(inverted: Bool)
        case sectionClose
        case comment
        case partial
        case delimiters
    }

    private struct Token {
        var kind: Kind
        /// Byte range in the source; for text, trimmed by standalone tags.
        var start: Int
        var end: Int
        var name: String = ""
        var standalone = false
        /// For a standalone tag: the white space before it on its line.
        var indent: String = ""
    }

    private let bytes: [UInt8]
    private let limits: MustacheLimits

    init(source: String, limits: MustacheLimits) {
        self.bytes = Array(source.utf8)
        self.limits = limits
    }

    /// Parses the whole source.
    func parse() throws -> [MustacheNode] {
        var tokens = try scan()
        markStandalone(&tokens)
        return try build(tokens)
    }

    // MARK: Scanning

    private func scan() throws -> [Token] {
        var tokens: [Token] = []
        var open = Array("{{".utf8)
        var close = Array("}}".utf8)
        var textStart = 0
        var position = 0
        while let tagStart = find(open, from: position) {
            if tagStart > textStart { tokens.append(Token(kind: .text, start: textStart, end: tagStart)) }
            var p = tagStart + open.count
            while p < bytes.count, isWhitespace(bytes[p]) { p += 1 }
            // A function, not a value: line and column cost a pass over the source.
            func unclosed() -> MustacheError {
                .unclosedTag(opening: string(open), closing: string(close), line: line(of: tagStart), column: column(of: tagStart))
            }
            guard p < bytes.count else { throw unclosed() }
            var token = Token(kind: .variable(escaped: true), start: tagStart, end: 0)
            switch bytes[p] {
            case UInt8(ascii: "{"):
                let closing = [UInt8(ascii: "}")] + close
                guard let end = find(closing, from: p + 1) else {
                    throw MustacheError.unclosedTag(
                        opening: string(open) + "{", closing: string(closing), line: line(of: tagStart),
                        column: column(of: tagStart))
                }
                token.kind = .variable(escaped: false)
                token.name = trimmed(p + 1, end)
                token.end = end + closing.count
            case UInt8(ascii: "="):
                guard let end = find(close, from: p + 1) else { throw unclosed() }
                token.kind = .delimiters
                token.end = end + close.count
                guard let pair = delimiters(p + 1, end) else {
                    throw MustacheError.invalidDelimiters(
                        tag: string(Array(bytes[tagStart..<token.end])), line: line(of: tagStart),
                        column: column(of: tagStart))
                }
                (open, close) = pair
            default:
                guard let end = find(close, from: p) else { throw unclosed() }
                token.end = end + close.count
                var nameStart = p + 1
                switch bytes[p] {
                case UInt8(ascii: "!"): token.kind = .comment
                case UInt8(ascii: "#"): token.kind = .sectionOpen(inverted: false)
                case UInt8(ascii: "^"): token.kind = .sectionOpen(inverted: true)
                case UInt8(ascii: "/"): token.kind = .sectionClose
                case UInt8(ascii: ">"): token.kind = .partial
                case UInt8(ascii: "&"): token.kind = .variable(escaped: false)
                default: nameStart = p
                }
                if token.kind != .comment { token.name = trimmed(nameStart, end) }
            }
            if token.kind != .comment && token.kind != .delimiters {
                try validate(token.name, isPartial: token.kind == .partial, at: tagStart)
            }
            tokens.append(token)
            position = token.end
            textStart = token.end
        }
        if textStart < bytes.count { tokens.append(Token(kind: .text, start: textStart, end: bytes.count)) }
        return tokens
    }

    /// Parses the inside of `{{=<% %>=}}` (after the first `=`, up to the closing delimiter).
    private func delimiters(_ start: Int, _ end: Int) -> ([UInt8], [UInt8])? {
        var content = Array(bytes[start..<end])
        while let last = content.last, isWhitespace(last) { content.removeLast() }
        guard content.last == UInt8(ascii: "=") else { return nil }
        content.removeLast()
        let parts = content.split(whereSeparator: isWhitespace)
        guard parts.count == 2, !parts.contains(where: { $0.contains(UInt8(ascii: "=")) }) else { return nil }
        return (Array(parts[0]), Array(parts[1]))
    }

    private func validate(_ name: String, isPartial: Bool, at offset: Int) throws {
        guard !name.isEmpty else { throw MustacheError.emptyTag(line: line(of: offset), column: column(of: offset)) }
        let hasEmptyPart =
            !isPartial && name != "." && name.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty)
        if hasEmptyPart || name.utf8.contains(where: isWhitespace) {
            throw MustacheError.invalidTagName(name: name, line: line(of: offset), column: column(of: offset))
        }
    }

    // MARK: Standalone lines

    /// Marks tags that stand alone on their line and removes that line's white space and newline.
    ///
    /// Only the tag's own line is inspected; a tag's delimiters are never
    /// white space, so scanning outward over spaces and tabs stays in text.
    private func markStandalone(_ tokens: inout [Token]) {
        for k in tokens.indices {
            switch tokens[k].kind {
            case .text, .variable: continue
            default: break
            }
            var lineStart = tokens[k].start
            while lineStart > 0, bytes[lineStart - 1] == 0x20 || bytes[lineStart - 1] == 0x09 { lineStart -= 1 }
            guard lineStart == 0 || bytes[lineStart - 1] == 0x0A else { continue }
            var lineEnd = tokens[k].end
            while lineEnd < bytes.count, bytes[lineEnd] == 0x20 || bytes[lineEnd] == 0x09 { lineEnd += 1 }
            if lineEnd == bytes.count {
                // End of the template ends the line.
            } else if bytes[lineEnd] == 0x0A {
                lineEnd += 1
            } else if bytes[lineEnd] == 0x0D, lineEnd + 1 < bytes.count, bytes[lineEnd + 1] == 0x0A {
                lineEnd += 2
            } else {
                continue
            }
            tokens[k].standalone = true
            tokens[k].indent = string(Array(bytes[lineStart..<tokens[k].start]))
            if k > 0, tokens[k - 1].kind == .text { tokens[k - 1].end = min(tokens[k - 1].end, lineStart) }
            if k + 1 < tokens.count, tokens[k + 1].kind == .text {
                tokens[k + 1].start = max(tokens[k + 1].start, lineEnd)
            }
        }
    }

    // MARK: Tree

    private struct OpenSection {
        var name: String
        var inverted: Bool
        var offset: Int
        var outer: [MustacheNode]
    }

    private func build(_ tokens: [Token]) throws -> [MustacheNode] {
        var open: [OpenSection] = []
        var current: [MustacheNode] = []
        for token in tokens {
            if token.kind == .text {
                appendText(token.start, token.end, to: &current)
                continue
            }
            if !token.standalone, isLineStart(token.start) { current.append(.lineStart) }
            switch token.kind {
            case .text, .comment, .delimiters:
                break
            case .variable(let escaped):
                current.append(.variable(path: path(token.name), escaped: escaped))
            case .partial:
                current.append(.partial(name: token.name, indent: token.standalone ? token.indent : ""))
            case .sectionOpen(let inverted):
                guard open.count < limits.maximumSectionNesting else {
                    throw MustacheError.nestingTooDeep(
                        limit: limits.maximumSectionNesting, line: line(of: token.start), column: column(of: token.start))
                }
                open.append(OpenSection(name: token.name, inverted: inverted, offset: token.start, outer: current))
                current = []
            case .sectionClose:
                guard let section = open.popLast() else {
                    throw MustacheError.unexpectedClosingTag(
                        found: token.name, line: line(of: token.start), column: column(of: token.start))
                }
                guard section.name == token.name else {
                    throw MustacheError.mismatchedClosingTag(
                        found: token.name, expected: section.name, line: line(of: token.start),
                        column: column(of: token.start))
                }
                let node = MustacheNode.section(path: path(section.name), inverted: section.inverted, children: current)
                current = section.outer
                current.append(node)
            }
        }
        if let section = open.last {
            throw MustacheError.unclosedSection(
                name: section.name, line: line(of: section.offset), column: column(of: section.offset))
        }
        return current
    }

    /// Appends text, with a `.lineStart` before every line that begins in it.
    private func appendText(_ start: Int, _ end: Int, to nodes: inout [MustacheNode]) {
        var segmentStart = start
        for p in start..<end where isLineStart(p) {
            if p > segmentStart { nodes.append(.text(string(Array(bytes[segmentStart..<p])))) }
            nodes.append(.lineStart)
            segmentStart = p
        }
        if end > segmentStart { nodes.append(.text(string(Array(bytes[segmentStart..<end])))) }
    }

    private func path(_ name: String) -> [String] {
        name == "." ? [] : name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }

    // MARK: Bytes

    private func isLineStart(_ p: Int) -> Bool { p == 0 || bytes[p - 1] == 0x0A }

    private func isWhitespace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

    private func string(_ b: [UInt8]) -> String { String(decoding: b, as: UTF8.self) }

    private func trimmed(_ start: Int, _ end: Int) -> String {
        var s = start
        var e = end
        while s < e, isWhitespace(bytes[s]) { s += 1 }
        while e > s, isWhitespace(bytes[e - 1]) { e -= 1 }
        return string(Array(bytes[s..<e]))
    }

    private func find(_ needle: [UInt8], from start: Int) -> Int? {
        guard let first = needle.first, needle.count <= bytes.count else { return nil }
        var i = start
        let last = bytes.count - needle.count
        while i <= last {
            if bytes[i] == first {
                var j = 1
                while j < needle.count, bytes[i + j] == needle[j] { j += 1 }
                if j == needle.count { return i }
            }
            i += 1
        }
        return nil
    }

    /// 1-based line of a byte offset.
    private func line(of offset: Int) -> Int {
        1 + bytes[..<offset].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
    }

    /// 1-based column of a byte offset, counted in Unicode scalars.
    private func column(of offset: Int) -> Int {
        var start = offset
        while start > 0, bytes[start - 1] != 0x0A { start -= 1 }
        return 1 + String(decoding: bytes[start..<offset], as: UTF8.self).unicodeScalars.count
    }
}
