import AlmanacCore

/// An expression as SQL over the table aliased `t`, with almanac's in-memory meaning.
struct ExpressionSQL {
    let schema: TableSchema

    func bindCondition(_ expression: Expression) throws -> BoundExpression {
        throw PostgresError.invalid("'\(expression)' cannot be translated to SQL yet")
    }

    func condition(_ bound: BoundExpression, aliases: inout Aliases) throws -> SQL {
        throw PostgresError.invalid("this expression cannot be translated to SQL yet")
    }
}

extension PostgresTable {
    /// Checks that an expression binds against the table's columns and translates to SQL.
    public func checkExpression(_ expression: Expression) throws {
        throw PostgresError.invalid("'\(expression)' cannot be translated to SQL yet")
    }
}
