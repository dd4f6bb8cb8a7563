/// The built-in scenario catalogs, `profiles/*.json`, compiled into the binary.
///
/// SwiftPM embeds the files themselves (`resources: [.embedInCode("Profiles/builtin")]`, where
/// `Profiles/builtin` links to the repository's `profiles/` folder): there is no generated copy to
/// keep in step. A new profile file adds its line below; `EmbeddedProfilesTests` keeps this table
/// equal to the folder.
package enum EmbeddedProfiles {
    /// File name → contents.
    package static let files: [String: String] = [
        "cherrysub.json": String(decoding: PackageResources.cherrysub_json, as: UTF8.self),
        "groovegrow.json": String(decoding: PackageResources.groovegrow_json, as: UTF8.self),
    ]
}
