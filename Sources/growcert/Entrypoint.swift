import ArgumentsKit
import Foundation

@main
enum Entrypoint {
    static func main() async {
        exit(await CLI(environment: ProcessInfo.processInfo.environment).run(arguments: CommandLineArguments.validated()))
    }
}
