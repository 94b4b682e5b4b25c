"""The leaf model of an open table: what the host holds in memory beside its database row
(`live.OpenTable`), who pressed (`Person`) and what is refused (`Refusal`). It imports nothing
above storage's rows, so every layer may name it."""
