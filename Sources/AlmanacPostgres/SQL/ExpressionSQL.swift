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
