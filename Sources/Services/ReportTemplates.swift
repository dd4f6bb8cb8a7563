import Foundation
import Reports

/// Reads a user's report templates from a folder (`--templates DIR`) into a `TemplateSet`.
///
/// Reads only the files a set can hold (`TemplateSet.knownFiles`); any it lacks falls back to the built-in one, and
/// `TemplateSet(files:)` checks every file before anything is rendered.
package enum ReportTemplates {
    /// The templates in `directory`.
    ///
    /// - Throws: `ReportError` when the directory is missing, or a file is unreadable, not UTF-8 or invalid.
    package static func load(directory: String) throws -> TemplateSet {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDir), isDir.boolValue else {
            throw ReportError.templateDirectoryMissing(path: directory)
        }
        var files: [String: (text: String, origin: String)] = [:]
        let base = URL(fileURLWithPath: directory)
        for name in TemplateSet.knownFiles {
            let url = base.appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: url.path) else { continue }
            let data: Data
            do { data = try Data(contentsOf: url) } catch {
                throw ReportError.unreadable(file: url.path, why: "\(error.localizedDescription)")
            }
            guard let text = String(data: data, encoding: .utf8) else {
                throw ReportError.unreadable(file: url.path, why: "it is not UTF-8")
            }
            files[name] = (text, url.path)
        }
        return try TemplateSet(files: files)
    }
}
