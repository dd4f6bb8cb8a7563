import ArgumentsKit

/// Options several commands declare alike, worded once; each command's `OptionGroup` names the ones it takes
/// (`let campaign = CommonOptions.campaign`). Each is made anew for each group (a `static var`, not a `static let`):
/// `OptionGroup.specs` collects the options a group makes.
enum CommonOptions {
    /// The campaign a command acts on, else the workspace's current one, else the only one (`Invocation.campaignId`).
    static var campaign: Option<String?> { Option.string("--campaign", "ID", help: "the campaign (default: the workspace's current one, or the only one)") }
    /// A list printed as CSV (`Invocation.printList`).
    static var csv: Option<Bool> { Option.flag("--csv", help: "print the list as CSV (RFC 4180) for a spreadsheet") }
    /// The run evidence is added to.
    static var run: Option<String> { Option.requiredString("--run", "ID", help: "the run") }
}
