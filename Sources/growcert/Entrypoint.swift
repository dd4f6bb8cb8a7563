import ArgumentsKit
import Foundation

@main
enum Entrypoint {
    /// Synchronous: the command runs on this thread (`MainThreadExecutor`), not on a thread the runtime starts for it.
    static func main() {
        let code = MainThreadExecutor().run {
            var cli = CLI(environment: .process)
            cli.terminal = TerminalStyle.detect(environment: .process)
            return await cli.run(arguments: CommandLineArguments.validated())
        }
        exit(code)
    }
}
