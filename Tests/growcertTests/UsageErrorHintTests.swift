import Checks
import Testing
@testable import growcert

/// The three usage errors that lacked what only the command line knows: each prints its library's words, then the
/// option that fixes it and the pointer to the command's `--help`, with the usage exit code (64).
@Suite struct UsageErrorHintTests {
    @Test("run share --expires 3d: the expiry's words, the option to fix, and run share's help")
    func badExpiry() throws {
        let g = try Growcert()
        let share = try g.run(["run", "share", "r1", "--expires", "3d"])
        #expect(share.code == 64, "\(share)")
        #expect(share.stderr == "growcert: Expiry '3d' is not a duration from 1m to 24h: write minutes or hours, e.g. 30m or 2h. Fix --expires.\n"
                + "See 'growcert run share --help'.\n", "\(share)")
    }

    @Test("sandbox serve with a bad setting: the emulator's words, the option to fix, and sandbox serve's help; nothing listens")
    func badEmulatorSetting() throws {
        let g = try Growcert()
        let bundle = try g.run(["sandbox", "serve", "--bundle-id", "not a bundle"], db: false)
        #expect(bundle.code == 64, "\(bundle)")
        #expect(bundle.stderr == "growcert: Invalid emulator configuration: bundle ID 'not a bundle' is not a reverse-DNS name such as 'com.example.app'. "
                + "Fix the option that sets it.\nSee 'growcert sandbox serve --help'.\n", "\(bundle)")
        #expect(bundle.stdout.isEmpty, "\(bundle)")
        let key = try g.run(["sandbox", "serve", "--profile", "cherrysub", "--publishable-key", "pk_nope"], db: false)
        #expect(key.code == 64, "\(key)")
        #expect(key.stderr.hasPrefix("growcert: Invalid emulator configuration: the publishable key must be 'iap_pk_'"), "\(key)")
        #expect(key.stderr.hasSuffix(" Fix the option that sets it.\nSee 'growcert sandbox serve --help'.\n"), "\(key)")
    }

    /// `check run` refuses an unknown `--check` in its pre-flight (`ServiceError.checkNotInScenario`) before the runner
    /// could throw `CheckError.unknownCheck`, so no command line reaches it today: its message is checked as `CLI.describe`
    /// words it for the process.
    @Test("An unknown check id from the runner: its words, the option to fix, and check run's help")
    func unknownCheck() {
        let (message, code) = CLI.describe(CheckError.unknownCheck("session.identfy", known: ["session.identify", "session.logout"]))
        #expect(code == 64)
        #expect(message == "Unknown check 'session.identfy'. Did you mean 'session.identify'? Known checks: session.identify, session.logout. "
                + "Check the ids given to --check.\nSee 'growcert check run --help'.", "\(message)")
    }
}
