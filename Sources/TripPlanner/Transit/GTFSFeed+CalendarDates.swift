extension GTFSFeed {
    /// A `calendar_dates.txt` row: a service added to or removed from one date, whatever `calendar.txt` says.
    public struct ServiceException: Sendable, Equatable {
        public var serviceID: String
        public var date: CivilDate
        /// `exception_type` 1 (service added) or 2 (service removed).
        public var added: Bool

        public init(serviceID: String, date: CivilDate, added: Bool) {
            self.serviceID = serviceID
            self.date = date
            self.added = added
        }
    }

    /// The services running on `day`: those of `calendar.txt` that run on its weekday within their
    /// dates, plus those `calendar_dates.txt` adds on it, minus those it removes.
    /// - Complexity: O(services + exceptions).
    public func runningServices(on day: CivilDate) -> Set<String> {
        var running = Set(services.filter { $0.runs(on: day) }.map(\.id))
        for exception in serviceExceptions where exception.date == day {
            if exception.added { running.insert(exception.serviceID) } else { running.remove(exception.serviceID) }
        }
        return running
    }

    static func readCalendarDates(_ table: CSVTable) throws(GTFSError) -> [ServiceException] {
        let id = try table.column("service_id"), date = try table.column("date"), type = try table.column("exception_type")
        var exceptions: [ServiceException] = []
        for row in table.rows {
            let field = FieldReader(table: table, line: row.line, fields: row.fields)
            let added: Bool
            switch row.fields[type] {
            case "1": added = true
            case "2": added = false
            default: throw field.error("exception_type", "expected 1 (added) or 2 (removed), got '\(row.fields[type])'")
            }
            exceptions.append(ServiceException(serviceID: try field.text(id, "service_id"), date: try field.date(date, "date"),
                                               added: added))
        }
        return exceptions
    }
}
