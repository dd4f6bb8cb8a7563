import Foundation
import Testing
import TestSupport

/// A local RFC 3161 timestamp authority for tests: the shared test authority (`TestTimestampAuthority`: a test CA and a
/// TSA certificate, extended key usage critical timeStamping), answering on 127.0.0.1 with `openssl ts -reply` behind a
/// tiny HTTP server. Traffic goes to loopback only.
final class LocalTSA {
    let authority: TestTimestampAuthority
    let url: String
    /// The authority's folder (its `tsa.cnf` and certificates), inside the test's directory.
    var dir: String { authority.directory.path }
    var caPEM: String { authority.caPEM }
    var tsaPEM: String { authority.tsaPEM }
    private let server: Running

    init(_ g: Growcert) throws {
        _ = try Growcert.tool(["openssl"], install: "install the Debian package openssl ('make test' does)")
        _ = try Growcert.tool(["python3"], install: "install python3 ('make test' does) for the local timestamp authority")
        authority = try TestTimestampAuthority(in: URL(fileURLWithPath: g.path("tsa")))
        let dir = authority.directory.path
        try """
            import http.server, subprocess, sys
            d = sys.argv[1]
            class H(http.server.BaseHTTPRequestHandler):
                def do_POST(self):
                    body = self.rfile.read(int(self.headers.get('Content-Length', '0')))
                    ok = self.headers.get('Content-Type') == 'application/timestamp-query'
                    open(d + '/req.tsq', 'wb').write(body)
                    r = subprocess.run(['openssl', 'ts', '-reply', '-config', d + '/tsa.cnf', '-queryfile', d + '/req.tsq', '-out', d + '/resp.tsr'], capture_output=True)
                    ok = ok and r.returncode == 0
                    data = open(d + '/resp.tsr', 'rb').read() if ok else r.stderr
                    self.send_response(200 if ok else 400)
                    self.send_header('Content-Type', 'application/timestamp-reply')
                    self.send_header('Content-Length', str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                def log_message(self, *a): pass
            s = http.server.HTTPServer(('127.0.0.1', 0), H)
            print(s.server_address[1], flush=True)
            s.serve_forever()

            """.write(toFile: dir + "/tsa.py", atomically: true, encoding: .utf8)
        server = try g.start("exec python3 '\(dir)/tsa.py' '\(dir)'")
        let port = try server.firstLine()
        url = "http://127.0.0.1:\(port)/tsa"
    }

    deinit {
        // SIGKILL: the test process may hand SIGTERM down ignored.
        server.process.send(signal: SIGKILL)
        _ = try? server.finish()
    }
}
