/// The built-in report templates and strings, `templates/`, compiled into the binary.
///
/// SwiftPM embeds the files themselves (`resources: [.embedInCode("Templates/builtin")]`, where
/// `Templates/builtin` links to the repository's `templates/` folder): there is no generated copy
/// to keep in step. A new template file adds its line below; `ReportRenderingTests` keeps this
/// table equal to the folder.
package enum EmbeddedTemplates {
    /// Relative path → contents.
    package static let files: [String: String] = [
        "commands.json": String(decoding: PackageResources.commands_json, as: UTF8.self),
        "report.html.mustache": String(decoding: PackageResources.report_html_mustache, as: UTF8.self),
        "report.md.mustache": String(decoding: PackageResources.report_md_mustache, as: UTF8.self),
        "strings/en.json": String(decoding: PackageResources.en_json, as: UTF8.self),
        "strings/zh-Hans.json": String(decoding: PackageResources.zh_Hans_json, as: UTF8.self),
    ]
}
