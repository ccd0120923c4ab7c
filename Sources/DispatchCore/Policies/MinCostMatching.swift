/// Minimum-cost maximum matching of rows to columns in a sparse bipartite
/// graph: the Hungarian method as successive shortest augmenting paths
/// (Dijkstra on reduced costs with potentials).
///
/// Each row also has a private "stay unmatched" column of cost `unmatchedCost`,
/// which makes every row matchable and lets the search prefer more matches
/// over cheaper ones.
enum MinCostMatching {
    struct Edge { var column: Int; var cost: Double }

    /// Far above any real ETA sum, so more matches always win.
    static let unmatchedCost = 1e9

    /// - Returns: for each row, its column or nil when left unmatched.
    /// - Complexity: O(rows × (E + V) log V) for E edges and V = rows + columns.
    static func solve(rows: [[Edge]], columns: Int) -> [Int?] {
        let n = rows.count
        let totalColumns = columns + n          // real columns, then one dummy per row
        var rowOfColumn = Array(repeating: -1, count: totalColumns)
        var columnOfRow = Array(repeating: -1, count: n)
        var u = Array(repeating: 0.0, count: n)
        var v = Array(repeating: 0.0, count: totalColumns)
        var dist = Array(repeating: Double.infinity, count: totalColumns)
        var previousRow = Array(repeating: -1, count: totalColumns)
        var finalized = Array(repeating: false, count: totalColumns)
        var touched: [Int] = []
        var reachedRows: [(row: Int, label: Double)] = []
        var heap = MinHeap()

        for source in 0..<n {
            touched.removeAll(keepingCapacity: true)
            reachedRows.removeAll(keepingCapacity: true)
            heap.removeAll()
            func relax(_ row: Int, _ edge: Edge, from base: Double) {
                // A finalized column keeps its label: rounding (costs span 1 to 1e9) may make a
                // reduced cost slightly negative, and relabelling it could close a cycle in the path.
                guard !finalized[edge.column] else { return }
                let reduced = edge.cost - u[row] - v[edge.column]
                let candidate = base + reduced
                if candidate < dist[edge.column] {
                    if dist[edge.column] == .infinity { touched.append(edge.column) }
                    dist[edge.column] = candidate
                    previousRow[edge.column] = row
                    heap.push(candidate, edge.column)
                }
            }
            /// The row's edges, then its own "stay unmatched" column.
            func relax(_ row: Int, from base: Double) {
                for edge in rows[row] { relax(row, edge, from: base) }
                relax(row, Edge(column: columns + row, cost: unmatchedCost), from: base)
            }
            relax(source, from: 0)
            var end = -1
            reachedRows.append((source, 0))
            while let (d, column) = heap.pop() {
                if finalized[column] || d > dist[column] { continue }
                finalized[column] = true
                let owner = rowOfColumn[column]
                if owner < 0 { end = column; break }
                reachedRows.append((owner, d))
                relax(owner, from: d)
            }
            let shortest = dist[end]
            for (row, label) in reachedRows { u[row] += shortest - min(label, shortest) }
            for column in touched {
                v[column] -= shortest - min(dist[column], shortest)
                dist[column] = .infinity
                finalized[column] = false
            }
            var column = end
            while true {
                let row = previousRow[column]
                let next = columnOfRow[row]
                columnOfRow[row] = column
                rowOfColumn[column] = row
                if row == source { break }
                column = next
            }
        }
        return columnOfRow.map { $0 >= 0 && $0 < columns ? $0 : nil }
    }
}

/// A small binary min-heap of (key, value) with ties broken by value.
struct MinHeap {
    private var items: [(key: Double, value: Int)] = []

    mutating func removeAll() { items.removeAll(keepingCapacity: true) }

    private func less(_ a: Int, _ b: Int) -> Bool {
        items[a].key < items[b].key || (items[a].key == items[b].key && items[a].value < items[b].value)
    }

    mutating func push(_ key: Double, _ value: Int) {
        items.append((key, value))
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard less(child, parent) else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    mutating func pop() -> (Double, Int)? {
        guard let top = items.first else { return nil }
        let last = items.removeLast()
        if !items.isEmpty {
            items[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1, right = left + 1
                var smallest = parent
                if left < items.count, less(left, smallest) { smallest = left }
                if right < items.count, less(right, smallest) { smallest = right }
                if smallest == parent { break }
                items.swapAt(parent, smallest)
                parent = smallest
            }
        }
        return (top.key, top.value)
    }
}
