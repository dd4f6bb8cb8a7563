/// The web view's templates, strings and static files, `web/`, compiled into the binary.
///
/// SwiftPM embeds the files themselves (`resources: [.embedInCode("Files/builtin")]`, where `Files/builtin` links
/// to the repository's `web/` folder): there is no generated copy to keep in step. A new file adds its line below;
/// `WebSecurityTests` keeps this table equal to the folder.
package enum EmbeddedWebFiles {
    /// Relative path → contents.
    package static let files: [String: String] = [
        "static/share.js": String(decoding: PackageResources.share_js, as: UTF8.self),
        "static/web.css": String(decoding: PackageResources.web_css, as: UTF8.self),
        "strings/en.json": String(decoding: PackageResources.en_json, as: UTF8.self),
        "strings/zh-Hans.json": String(decoding: PackageResources.zh_Hans_json, as: UTF8.self),
        "templates/campaign.mustache": String(decoding: PackageResources.campaign_mustache, as: UTF8.self),
        "templates/campaigns.mustache": String(decoding: PackageResources.campaigns_mustache, as: UTF8.self),
        "templates/diff.mustache": String(decoding: PackageResources.diff_mustache, as: UTF8.self),
        "templates/error.mustache": String(decoding: PackageResources.error_mustache, as: UTF8.self),
        "templates/foot.mustache": String(decoding: PackageResources.foot_mustache, as: UTF8.self),
        "templates/head.mustache": String(decoding: PackageResources.head_mustache, as: UTF8.self),
        "templates/run.mustache": String(decoding: PackageResources.run_mustache, as: UTF8.self),
        "templates/share.mustache": String(decoding: PackageResources.share_mustache, as: UTF8.self),
        "templates/shared.mustache": String(decoding: PackageResources.shared_mustache, as: UTF8.self),
        "templates/unshared.mustache": String(decoding: PackageResources.unshared_mustache, as: UTF8.self),
        "templates/verify.mustache": String(decoding: PackageResources.verify_mustache, as: UTF8.self),
    ]
}
