import Foundation
import RFC3339Time
import Testing

/// HTTP's `Date` header, as RFC 9110 §5.6.7 writes and reads it: the Sandbox's clock in every answer.
@Suite struct HTTPDateTests {
    @Test("RFC 9110's example instant reads the same in all three forms", arguments: [
        "Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
    ])
    func theThreeFormsOfOneInstantAgree(_ text: String) {
        #expect(HTTPDate.seconds(text) == 784_111_777)
    }

    @Test func serversWriteIMFFixdate() {
        #expect(HTTPDate.string(secondsSince1970: 784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.string(secondsSince1970: 0) == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(HTTPDate.string(Date(timeIntervalSince1970: 1_796_330_612.9)) == "Thu, 03 Dec 2026 20:43:32 GMT")
    }

    @Test("Writing then reading gives the same second, across leap days and years")
    func roundTrips() {
        for seconds in stride(from: Int64(-86_400 * 400), through: 4_102_444_800, by: 7_654_321) {
            #expect(HTTPDate.seconds(HTTPDate.string(secondsSince1970: seconds)) == seconds)
        }
    }

    @Test("Anything else is not a date", arguments: [
        "", "Sun, 06 Nov 1994 08:49:37 UTC", "Mon, 06 Nov 1994 08:49:37 GMT x", "Sun, 31 Feb 1994 08:49:37 GMT",
        "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 6 Nov 1994 08:49:37 GMT", "1994-11-06T08:49:37Z", "Sun, 06 Nov 1994 08:49 GMT",
        "Xyz, 06 Nov 1994 08:49:37 GMT", "Sun, 06 Foo 1994 08:49:37 GMT",
    ])
    func malformedDatesAreRefused(_ text: String) {
        #expect(HTTPDate.seconds(text) == nil)
    }
}
