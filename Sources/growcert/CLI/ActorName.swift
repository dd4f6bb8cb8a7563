#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Who is recording, for the journal: the one rule every command uses.
///
/// `--actor`, else `$GROWCERT_ACTOR`, else `$USER`, else the name of the operating-system
/// account the process runs as (containers and CI often leave `$USER` unset). An empty value
/// counts as not given. Never a placeholder such as `unknown`: an account with no name is
/// recorded by its user id.
enum ActorName {
    /// The actor for a call; `fallback` replaces `$USER` and the account name (the demo records as `growcert demo`).
    static func resolve(option: String?, environment: CallEnvironment, fallback: String? = nil) -> String {
        for candidate in [option, environment["GROWCERT_ACTOR"]] {
            if let c = candidate, !c.isEmpty { return c }
        }
        if let fallback { return fallback }
        if let user = environment["USER"], !user.isEmpty { return user }
        return accountName()
    }

    /// The name of the effective user's account (`getpwuid(geteuid())`), or `uid N` when it has none.
    static func accountName() -> String {
        let uid = geteuid()
        if let entry = getpwuid(uid), let name = entry.pointee.pw_name {
            let text = String(cString: name)
            if !text.isEmpty { return text }
        }
        return "uid \(uid)"
    }
}
