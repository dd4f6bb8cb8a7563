import Testing

@testable import Reports

@Suite struct MustacheRenderingTests {
    @Test func htmlEscapingIsTheDefaultAndEscapesAmpersandFirst() throws {
        let template = try MustacheTemplate(source: "{{x}}|{{{x}}}|{{&x}}")
        let rendered = try template.render(["x": "&lt; <b title=\"it's\">"])
        #expect(
            rendered
                == "&amp;lt; &lt;b title=&quot;it&#39;s&quot;&gt;|&lt; <b title=\"it's\">|&lt; <b title=\"it's\">")
    }

    @Test func customEscaperAppliesOnlyToDoubleMustacheTags() throws {
        let markdownCell: (String) -> String = { text in
            text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: "<br>")
        }
        let template = try MustacheTemplate(source: "| {{cell}} | {{{cell}}} | {{&cell}} |")
        let rendered = try template.render(["cell": "a|b\n<c>"], escape: markdownCell)
        #expect(rendered == "| a\\|b<br><c> | a|b\n<c> | a|b\n<c> |")
    }

    @Test func noneEscaperInsertsValuesUnchanged() throws {
        let template = try MustacheTemplate(source: "{{x}}")
        #expect(try template.render(["x": "<&>"], escape: MustacheEscaping.none) == "<&>")
    }

    @Test func templateRendersTheSameOutputEveryTime() throws {
        let template = try MustacheTemplate(
            source: "{{#rows}}{{name}}={{value}};{{/rows}}", partials: [:])
        let context: MustacheValue = ["rows": [["name": "a", "value": 1], ["name": "b", "value": 2.5]]]
        let first = try template.render(context)
        #expect(first == "a=1;b=2.5;")
        #expect(try template.render(context) == first)
    }

    @Test("A lazy list renders exactly as the list of the same items, in sections, inverted sections, nested sections and dotted names; each item is made when its turn comes")
    func lazyListRendersAsTheListOfItsItems() throws {
        let template = try MustacheTemplate(source: "{{#rows}}[{{name}}{{#inner}}<{{.}}/{{name}}>{{/inner}}]{{/rows}}{{^rows}}none{{/rows}}|{{rows}}|{{#rows}}{{/rows}}")
        let items: [MustacheValue] = (0..<5).map { i in ["name": .string("n\(i)"), "inner": .list((0..<i).map { .number(String($0)) })] }
        for count in [0, 1, 5] {
            let eager = try template.render(["rows": .list(Array(items.prefix(count)))])
            let lazy = try template.render(["rows": .lazyList(MustacheLazyList(count: count) { items[$0] })])
            #expect(lazy == eager)
        }
        // Items are made as they render: the renderer asks for each one in order, once per pass over the section.
        final class Asked: @unchecked Sendable { var order: [Int] = [] }
        let asked = Asked()
        let list = MustacheLazyList(count: 3) { i in asked.order.append(i); return ["name": .string("x\(i)")] }
        #expect(try MustacheTemplate(source: "{{#rows}}{{name}}{{/rows}}").render(["rows": .lazyList(list)]) == "x0x1x2")
        #expect(asked.order == [0, 1, 2])
    }

    @Test func emptyStringIsFalsyAndZeroIsTruthy() throws {
        let template = try MustacheTemplate(source: "{{#s}}S{{/s}}{{^s}}no-s{{/s}} {{#n}}N{{n}}{{/n}}")
        #expect(try template.render(["s": "", "n": 0]) == "no-s N0")
        #expect(try template.render(["s": "x", "n": 0]) == "S N0")
    }

    @Test func listsAndDictionariesInterpolateAsEmptyText() throws {
        let template = try MustacheTemplate(source: "[{{list}}][{{dict}}][{{missing}}][{{nothing}}]")
        #expect(try template.render(["list": [1, 2], "dict": ["a": 1], "nothing": nil]) == "[][][][]")
    }

    @Test func nestedStandalonePartialsAccumulateIndentation() throws {
        let template = try MustacheTemplate(
            source: "<ul>\n  {{>items}}\n</ul>\n",
            partials: ["items": "{{#items}}\n  {{>item}}\n{{/items}}\n", "item": "<li>\n  {{name}}\n</li>\n"])
        let rendered = try template.render(["items": [["name": "a\nb"], ["name": "c"]]])
        #expect(
            rendered
                == "<ul>\n    <li>\n      a\nb\n    </li>\n    <li>\n      c\n    </li>\n</ul>\n")
    }

    @Test func missingPartialRendersAsEmptyText() throws {
        let template = try MustacheTemplate(source: "[{{>absent}}]")
        #expect(try template.render([:]) == "[]")
    }

    @Test func recursivePartialThatEndsWithTheDataRenders() throws {
        let template = try MustacheTemplate(
            source: "{{>node}}", partials: ["node": "{{name}}({{#children}}{{>node}}{{/children}})"])
        var tree: MustacheValue = ["name": "leaf", "children": []]
        for level in 0..<60 { tree = ["name": MustacheValue(level), "children": [tree]] }
        let rendered = try template.render(tree)
        #expect(rendered.hasPrefix("59(58(57("))
        #expect(rendered.hasSuffix("leaf(" + String(repeating: ")", count: 61)))
    }

    @Test func endlessPartialRecursionIsRefusedAtTheDepthLimit() throws {
        let template = try MustacheTemplate(source: "{{>loop}}", partials: ["loop": "x{{>loop}}"])
        #expect(throws: MustacheError.partialsTooDeep(name: "loop", limit: 64)) { try template.render([:]) }
        #expect(
            MustacheError.partialsTooDeep(name: "loop", limit: 64).description
                == "Partial 'loop' is included more than 64 levels deep: check the partials for endless recursion.")
    }

    @Test func partialDepthLimitIsConfigurable() throws {
        let limits = MustacheLimits(maximumPartialDepth: 3)
        let template = try MustacheTemplate(
            source: "{{>p}}", partials: ["p": "+{{#next}}{{>p}}{{/next}}"], limits: limits)
        let three: MustacheValue = ["next": ["next": ["next": false]]]
        #expect(try template.render(three) == "+++")
        let four: MustacheValue = ["next": three]
        #expect(throws: MustacheError.partialsTooDeep(name: "p", limit: 3)) { try template.render(four) }
    }

    @Test func outputBeyondTheLimitIsRefused() throws {
        let limits = MustacheLimits(maximumOutputBytes: 100)
        let template = try MustacheTemplate(source: "{{#items}}0123456789{{/items}}", limits: limits)
        let ten = MustacheValue.list(Array(repeating: true, count: 10))
        #expect(try template.render(["items": ten]).utf8.count == 100)
        let eleven = MustacheValue.list(Array(repeating: true, count: 11))
        #expect(throws: MustacheError.outputTooLarge(limit: 100)) { try template.render(["items": eleven]) }
        #expect(
            MustacheError.outputTooLarge(limit: 100).description
                == "Rendered output exceeds 100 bytes: check the template for sections repeated over large lists.")
    }

    @Test func nestedSectionsOverLargeListsStopAtTheStepLimitInsteadOfHanging() throws {
        // 1000^8 iterations that produce no output: only the step bound ends this.
        let source = String(repeating: "{{#l}}", count: 8) + "{{missing}}" + String(repeating: "{{/l}}", count: 8)
        let limits = MustacheLimits(maximumSteps: 100_000)
        let template = try MustacheTemplate(source: source, limits: limits)
        let list = MustacheValue.list(Array(repeating: [:], count: 1000))
        #expect(throws: MustacheError.tooManySteps(limit: 100_000)) { try template.render(["l": list]) }
        #expect(
            MustacheError.tooManySteps(limit: 5).description
                == "Rendering exceeded 5 steps: check the template for sections nested over large lists.")
    }

    @Test func deepSectionsInsideRecursivePartialsRenderWithoutExhaustingTheStack() throws {
        // 64 partial levels × 256 nested sections: far deeper than the call stack would allow recursively.
        let nested = String(repeating: "{{#.}}", count: 256) + "{{>p}}" + String(repeating: "{{/.}}", count: 256)
        let template = try MustacheTemplate(source: "{{>p}}", partials: ["p": nested])
        #expect(throws: MustacheError.partialsTooDeep(name: "p", limit: 64)) { try template.render(true) }
    }

    @Test func dottedNamesResolveTheFirstPartThroughTheStackAndTheRestInside() throws {
        let template = try MustacheTemplate(source: "{{#inner}}{{outer.name}}/{{inner.name}}/{{name}}{{/inner}}")
        let context: MustacheValue = ["outer": ["name": "O"], "inner": ["name": "I", "outer": ["x": 1]]]
        // `outer` is found first in `inner`, which has no `name`: the rest is not searched further down.
        #expect(try template.render(context) == "/I/I")
    }
}
