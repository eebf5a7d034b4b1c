"""Run dynoscope's Athena SQL in DuckDB, an engine independent of dynoscope's, over an export's
files: the CREATE EXTERNAL TABLE's columns become a DuckDB view over the gzipped JSON lines, and
the query runs as written. Prints each row as one JSON object (pk, stored, counted, drift).

usage: run_duckdb.py DDL_FILE QUERY_FILE DATA_GLOB
"""

import json
import re
import sys

import duckdb


def duck_type(athena: str) -> str:
    """`struct<S:string>` (Athena's DDL) as DuckDB's `STRUCT("S" VARCHAR)`."""
    athena = athena.strip()
    if athena == "string":
        return "VARCHAR"
    inner = re.fullmatch(r"struct<(.*)>", athena, re.S)
    if not inner:
        raise SystemExit(f"not a type of the DDL: {athena}")
    fields, depth, start = [], 0, 0
    text = inner.group(1)
    for i, c in enumerate(text + ","):
        if c == "<":
            depth += 1
        elif c == ">":
            depth -= 1
        elif c == "," and depth == 0:
            fields.append(text[start:i].strip())
            start = i + 1
    parts = []
    for field in fields:
        name, kind = re.fullmatch(r"`((?:[^`]|``)*)`:(.*)|([^:]+):(.*)", field, re.S).group(
            1, 2
        ) if field.startswith("`") else field.split(":", 1)
        name = name.replace("``", "`")
        parts.append('"' + name.replace('"', '""') + '" ' + duck_type(kind))
    return "STRUCT(" + ", ".join(parts) + ")"


def main() -> None:
    ddl, query, data = open(sys.argv[1]).read(), open(sys.argv[2]).read(), sys.argv[3]
    head = re.match(r"CREATE EXTERNAL TABLE `((?:[^`]|``)*)` \(\s*item (struct<.*>)\s*\)", ddl, re.S)
    if not head:
        raise SystemExit("not dynoscope's CREATE EXTERNAL TABLE")
    table, item = head.group(1).replace("``", "`"), duck_type(head.group(2))
    db = duckdb.connect()
    columns = "{'Item': '" + item.replace("'", "''") + "'}"
    db.execute(
        f'CREATE VIEW "{table}" AS SELECT "Item" AS item FROM read_json('
        f"'{data}', format = 'newline_delimited', columns = {columns})"
    )
    cursor = db.execute(query)
    names = [d[0] for d in cursor.description]
    for row in cursor.fetchall():
        print(json.dumps({n: (None if v is None else str(v)) for n, v in zip(names, row)}))


main()
