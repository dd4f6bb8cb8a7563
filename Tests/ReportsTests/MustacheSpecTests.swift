import Evidence
import Foundation
import StrictJSON
import Testing

@testable import Reports

/// One test case from the official Mustache spec.
struct MustacheSpecCase: Sendable, CustomTestStringConvertible {
    let module: String
    let name: String
    let template: String
    let data: JSONValue
    let partials: [String: String]
    let expected: String

    var testDescription: String { "\(module): \(name)" }

    static let modules = ["comments", "delimiters", "interpolation", "inverted", "partials", "sections"]

    /// Every case of every module, or the reason they could not be read.
    static let loaded: Result<[MustacheSpecCase], SpecLoadError> = Result { try load() }.mapError {
        SpecLoadError(message: String(describing: $0))
    }

    static var all: [MustacheSpecCase] { (try? loaded.get()) ?? [] }

    struct SpecLoadError: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    private static func load() throws -> [MustacheSpecCase] {
        var cases: [MustacheSpecCase] = []
        for module in modules {
            guard let url = Bundle.module.url(forResource: module, withExtension: "json", subdirectory: "Fixtures/mustache-spec")
            else { throw SpecLoadError(message: "missing spec module \(module).json") }
            let document = try JSONValue.parse(Data(contentsOf: url))
            guard let tests = document["tests"]?.arrayValue else {
                throw SpecLoadError(message: "\(module).json has no tests array")
            }
            for test in tests {
                guard let name = test["name"]?.stringValue, let template = test["template"]?.stringValue,
                    let expected = test["expected"]?.stringValue, let data = test["data"]
                else { throw SpecLoadError(message: "\(module).json has a malformed test") }
                var partials: [String: String] = [:]
                for (key, value) in test["partials"]?.objectValue ?? [:] {
                    guard let text = value.stringValue else {
                        throw SpecLoadError(message: "\(module).json: partial '\(key)' of '\(name)' is not a string")
                    }
                    partials[key] = text
                }
                cases.append(
                    MustacheSpecCase(
                        module: module, name: name, template: template, data: data, partials: partials,
                        expected: expected))
            }
        }
        return cases
    }
}

@Suite struct MustacheSpecTests {
    @Test func specSuiteLoadsAll136CasesFromTheSixRequiredModules() throws {
        let cases = try MustacheSpecCase.loaded.get()
        #expect(cases.count == 136)
        let perModule = Dictionary(grouping: cases, by: \.module).mapValues(\.count)
        #expect(
            perModule == [
                "comments": 12, "delimiters": 14, "interpolation": 42, "inverted": 22, "partials": 12, "sections": 34,
            ])
        #expect(Set(cases.map(\.testDescription)).count == 136, "case names are unique, so failures name one case")
    }

    @Test(arguments: MustacheSpecCase.all)
    func specCaseRendersTheExpectedOutput(_ spec: MustacheSpecCase) throws {
        let template = try MustacheTemplate(source: spec.template, partials: spec.partials)
        let rendered = try template.render(MustacheValue(json: spec.data))
        #expect(rendered == spec.expected, "\(spec.testDescription)")
    }
}
