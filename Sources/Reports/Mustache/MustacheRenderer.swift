/// Walks parsed nodes against a context stack and builds the output.
///
/// Iterative, with an explicit frame stack, so neither deep section nesting
/// nor recursive partials can exhaust the call stack; each is bounded by
/// `MustacheLimits` instead.
struct MustacheRenderer {
    /// A node list being rendered, with what to undo when it finishes.
    private struct Frame {
        var nodes: [MustacheNode]
        var index = 0
        /// For a section over a list: how many items, how to get each, and which one is on the context stack.
        var count = 0
        var items: (Int) -> MustacheValue = { _ in .null }
        var item = 0
        var pushedContext = false
        /// For a partial: the indentation to restore when it finishes.
        var savedIndent: String?
    }

    let partials: [String: [MustacheNode]]
    let limits: MustacheLimits
    let escape: (String) -> String
    private var contexts: [MustacheValue]
    private var output = ""
    private var indent = ""
    private var partialDepth = 0
    private var steps = 0

    init(
        partials: [String: [MustacheNode]], limits: MustacheLimits, escape: @escaping (String) -> String,
        context: MustacheValue
    ) {
        self.partials = partials
        self.limits = limits
        self.escape = escape
        self.contexts = [context]
    }

    mutating func render(_ root: [MustacheNode]) throws -> String {
        var frames = [Frame(nodes: root)]
        while let top = frames.indices.last {
            guard frames[top].index < frames[top].nodes.count else {
                let frame = frames[top]
                if frame.item + 1 < frame.count {
                    frames[top].item += 1
                    frames[top].index = 0
                    contexts[contexts.count - 1] = frame.items(frame.item + 1)
                    continue
                }
                if frame.pushedContext { contexts.removeLast() }
                if let saved = frame.savedIndent {
                    indent = saved
                    partialDepth -= 1
                }
                frames.removeLast()
                continue
            }
            let node = frames[top].nodes[frames[top].index]
            frames[top].index += 1
            try count(steps: 1)

            switch node {
            case .text(let text):
                try append(text)
            case .lineStart:
                if !indent.isEmpty { try append(indent) }
            case .variable(let path, let escaped):
                let text = try lookup(path)?.renderedText ?? ""
                if !text.isEmpty { try append(escaped ? escape(text) : text) }
            case .section(let path, let inverted, let children):
                let value = try lookup(path) ?? .null
                if inverted {
                    if !value.isTruthy { frames.append(Frame(nodes: children)) }
                } else if case .list(let items) = value {
                    guard let first = items.first else { break }
                    contexts.append(first)
                    frames.append(Frame(nodes: children, count: items.count, items: { items[$0] }, pushedContext: true))
                } else if case .lazyList(let list) = value {
                    guard list.count > 0 else { break }
                    contexts.append(list.item(0))
                    frames.append(Frame(nodes: children, count: list.count, items: list.item, pushedContext: true))
                } else if value.isTruthy {
                    contexts.append(value)
                    frames.append(Frame(nodes: children, pushedContext: true))
                }
            case .partial(let name, let partialIndent):
                guard let nodes = partials[name] else { break }
                guard partialDepth < limits.maximumPartialDepth else {
                    throw MustacheError.partialsTooDeep(name: name, limit: limits.maximumPartialDepth)
                }
                partialDepth += 1
                frames.append(Frame(nodes: nodes, savedIndent: indent))
                indent += partialIndent
            }
        }
        return output
    }

    private mutating func count(steps more: Int) throws {
        steps += more
        guard steps <= limits.maximumSteps else { throw MustacheError.tooManySteps(limit: limits.maximumSteps) }
    }

    private mutating func append(_ text: String) throws {
        output += text
        guard output.utf8.count <= limits.maximumOutputBytes else {
            throw MustacheError.outputTooLarge(limit: limits.maximumOutputBytes)
        }
    }

    /// Resolves a dotted name per the spec: the first part through the context
    /// stack from the top, the remaining parts only inside that value.
    ///
    /// Each context examined counts as a step: a miss deep inside nested
    /// sections and partials walks the whole stack, and that work must be bounded too.
    private mutating func lookup(_ path: [String]) throws -> MustacheValue? {
        guard let first = path.first else { return contexts.last }
        var found: MustacheValue?
        var examined = 0
        for context in contexts.reversed() {
            examined += 1
            if case .dictionary(let fields) = context, let value = fields[first] {
                found = value
                break
            }
        }
        try count(steps: examined)
        guard var value = found else { return nil }
        for part in path.dropFirst() {
            guard case .dictionary(let fields) = value, let next = fields[part] else { return nil }
            value = next
        }
        return value
    }
}
