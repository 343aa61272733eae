#!/usr/bin/env python3
"""report-schema.py SCHEMA FILE... - check tsctrace JSON reports against a JSON Schema.

Prints one line per invalid file, `FILE: path.to.field: message` (at most 3 errors per file,
the first one found on each line; a file that is not JSON gets one line), and exits 1 if any
file is invalid, 0 if all are valid, 2 on bad usage, an unreadable or invalid schema, or when
the jsonschema module is missing (Debian: apt-get install python3-jsonschema).

The validator class is the one the schema's "$schema" names; formats are not checked.
"""
import json
import sys

MAX_ERRORS = 3


def die(msg):
    print(f"report-schema.py: {msg}", file=sys.stderr)
    sys.exit(2)


def field_path(error):
    """The failing member as functions[0].cycles.min ("(top)" for the document itself)."""
    out = ""
    for part in error.absolute_path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out or "(top)"


def short(message, limit=200):
    message = " ".join(message.split())
    return message if len(message) <= limit else message[: limit - 3] + "..."


def message(error):
    """The validator's message, except for a member the schema forbids outright (a `false`
    subschema), whose message would quote the whole value."""
    if error.schema is False:
        return "not allowed here"
    return short(error.message)


def load_json(path):
    with open(path, "rb") as f:
        return json.loads(f.read().decode("utf-8"))


def main(argv):
    if len(argv) < 3:
        die("usage: report-schema.py SCHEMA FILE...")
    try:
        import jsonschema
        import jsonschema.validators
    except ImportError:
        die("the Python module jsonschema is missing "
            "(Debian: apt-get install python3-jsonschema)")

    try:
        schema = load_json(argv[1])
    except (OSError, ValueError) as e:
        die(f"{argv[1]}: cannot read the schema: {short(str(e))}")
    cls = jsonschema.validators.validator_for(schema, default=None)
    if cls is None:
        die(f"{argv[1]}: unknown or missing $schema: {schema.get('$schema')!r}")
    try:
        cls.check_schema(schema)
    except jsonschema.exceptions.SchemaError as e:
        die(f"{argv[1]}: not a valid schema: {short(e.message)}")
    validator = cls(schema)  # no format_checker: formats are not checked

    bad = 0
    for path in argv[2:]:
        try:
            doc = load_json(path)
        except (OSError, ValueError) as e:
            print(f"{path}: (file): not a readable JSON document: {short(str(e))}")
            bad += 1
            continue
        errors = sorted(validator.iter_errors(doc),
                        key=lambda e: (list(map(str, e.absolute_path)), e.message))
        for e in errors[:MAX_ERRORS]:
            print(f"{path}: {field_path(e)}: {message(e)}")
        if errors:
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
