#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The environment variables a call reads: the process's own, or those an in-process test gives.
///
/// The process's variables are looked up when a name is asked (`getenv`: the first `NAME=` in `environ` wins), not copied
/// into a dictionary at start: making a `[String: String]` cost a one-note write about a fiftieth of its time, most of it
/// the Swift runtime instantiating the dictionary's storage type once per process (docs/performance.md, cli-add).
struct CallEnvironment: ExpressibleByDictionaryLiteral {
    /// nil: the process's own environment.
    private let given: [String: String]?

    /// The process's environment, read as the call asks.
    static var process: CallEnvironment { CallEnvironment(given: nil) }

    private init(given: [String: String]?) { self.given = given }

    /// These variables and no others (an in-process test's).
    init(_ variables: [String: String]) { given = variables }

    init(dictionaryLiteral elements: (String, String)...) {
        given = Dictionary(elements, uniquingKeysWith: { first, _ in first })
    }

    /// The value of variable `name`, nil when it is not set.
    subscript(name: String) -> String? {
        if let given { return given[name] }
        return name.withCString { getenv($0) }.map { String(cString: $0) }
    }
}
