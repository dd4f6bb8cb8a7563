import Testing

@testable import Reports

@Suite struct MustacheErrorTests {
    struct BadTemplate: Sendable, CustomTestStringConvertible {
        let label: String
        let source: String
        let message: String
        var testDescription: String { label }
    }

    static let badTemplates: [BadTemplate] = [
        BadTemplate(
            label: "unclosed variable tag", source: "Hello\n  {{name",
            message: "Unclosed tag '{{' at line 2, column 3: add the closing '}}'."),
        BadTemplate(
            label: "unclosed triple mustache", source: "a {{{name}}",
            message: "Unclosed tag '{{{' at line 1, column 3: add the closing '}}}'."),
        BadTemplate(
            label: "unclosed tag after changed delimiters", source: "{{=<% %>=}}\n<%name",
            message: "Unclosed tag '<%' at line 2, column 1: add the closing '%>'."),
        BadTemplate(
            label: "unclosed comment", source: "{{! never closed",
            message: "Unclosed tag '{{' at line 1, column 1: add the closing '}}'."),
        BadTemplate(
            label: "tag opened at the very end", source: "text {{",
            message: "Unclosed tag '{{' at line 1, column 6: add the closing '}}'."),
        BadTemplate(
            label: "unclosed section", source: "line one\r\nx {{#items}}\n{{name}}\n",
            message: "Unclosed section 'items' opened at line 2, column 3: add a closing tag '/items'."),
        BadTemplate(
            label: "mismatched closing tag", source: "{{#a}}\n{{#b}}\n  {{/a}}\n{{/b}}",
            message:
                "Closing tag '/a' at line 3, column 3 does not match the open section 'b': close 'b' first."),
        BadTemplate(
            label: "closing tag with nothing open", source: "ok\n{{/a}}",
            message:
                "Closing tag '/a' at line 2, column 1 has no open section: remove it or open the section 'a' before it."
        ),
        BadTemplate(
            label: "set-delimiter tag with one delimiter", source: "{{=<%=}}",
            message:
                "Invalid set-delimiter tag '{{=<%=}}' at line 1, column 1: write two delimiters without spaces or '=' between '=' signs, e.g. '{{=<% %>=}}'."
        ),
        BadTemplate(
            label: "set-delimiter tag without the closing equals sign", source: "x\n{{=<% %>}}",
            message:
                "Invalid set-delimiter tag '{{=<% %>}}' at line 2, column 1: write two delimiters without spaces or '=' between '=' signs, e.g. '{{=<% %>=}}'."
        ),
        BadTemplate(
            label: "set-delimiter tag with an equals sign inside a delimiter", source: "{{=<= =>=}}",
            message:
                "Invalid set-delimiter tag '{{=<= =>=}}' at line 1, column 1: write two delimiters without spaces or '=' between '=' signs, e.g. '{{=<% %>=}}'."
        ),
        BadTemplate(
            label: "empty tag", source: "a {{ }} b",
            message: "Empty tag at line 1, column 3: write a name inside the tag."),
        BadTemplate(
            label: "empty section name", source: "{{#}}{{/}}",
            message: "Empty tag at line 1, column 1: write a name inside the tag."),
        BadTemplate(
            label: "name with a space", source: "{{first name}}",
            message:
                "Invalid tag name 'first name' at line 1, column 1: names have no spaces and no empty parts between dots."
        ),
        BadTemplate(
            label: "dotted name with an empty part", source: "é {{a..b}}",
            message:
                "Invalid tag name 'a..b' at line 1, column 3: names have no spaces and no empty parts between dots."
        ),
    ]

    @Test(arguments: badTemplates)
    func malformedTemplateIsRejectedWithItsLineAndColumn(_ bad: BadTemplate) {
        #expect {
            _ = try MustacheTemplate(source: bad.source)
        } throws: { error in
            (error as? MustacheError)?.description == bad.message
        }
    }

    @Test func errorInAPartialNamesThePartial() {
        #expect {
            _ = try MustacheTemplate(source: "{{>row}}", partials: ["row": "ok", "table": "{{#rows}}\n{{>row}}"])
        } throws: { error in
            (error as? MustacheError)?.description
                == "In partial 'table': Unclosed section 'rows' opened at line 1, column 1: add a closing tag '/rows'."
        }
    }

    @Test func sectionsNestedToTheLimitParseAndOneMoreLevelIsRefused() throws {
        let limit = MustacheLimits.standard.maximumSectionNesting
        let atLimit = String(repeating: "{{#a}}", count: limit) + "x" + String(repeating: "{{/a}}", count: limit)
        let template = try MustacheTemplate(source: atLimit)
        #expect(try template.render(["a": true]) == "x")

        let tooDeep = "\n" + String(repeating: "{{#a}}", count: limit + 1)
        #expect(throws: MustacheError.nestingTooDeep(limit: limit, line: 2, column: 1 + 6 * limit)) {
            _ = try MustacheTemplate(source: tooDeep)
        }
        #expect(
            MustacheError.nestingTooDeep(limit: 256, line: 2, column: 1531).description
                == "Sections nest deeper than 256 levels at line 2, column 1531: flatten the template.")
    }

    @Test func hostileSourcesFailCleanlyWithoutCrashing() {
        let sources = [
            String(repeating: "{{", count: 50_000),
            String(repeating: "{{#a}}", count: 100_000),
            String(repeating: "{{/a}}", count: 1_000),
            String(repeating: "{{{", count: 10_000),
            String(repeating: "{{=", count: 10_000),
            "{{=| |=}}" + String(repeating: "|#a|", count: 10_000),
        ]
        for source in sources {
            #expect(throws: MustacheError.self) { _ = try MustacheTemplate(source: source) }
        }
    }
}
