"""Read generated code with tree-sitter's grammar of its language and say what it holds.

usage: structure.py LANGUAGE FILE   (LANGUAGE: java, kotlin, csharp, php)

Prints one JSON object: `errors` (the source ranges tree-sitter could not parse, or marked
missing), `strings` (every string literal's value, its escapes decoded by the language's own
rules, written here independently of the generator), and `calls` (the names of the methods
and functions called). tests/targets.rs compares them with the request the code was made from.
"""

import json
import re
import sys

from tree_sitter import Language, Parser

LANGUAGES = {
    "java": ("tree_sitter_java", "language", {"string_literal"}),
    "kotlin": ("tree_sitter_kotlin", "language", {"string_literal"}),
    "csharp": ("tree_sitter_c_sharp", "language", {"string_literal"}),
    "php": ("tree_sitter_php", "language_php", {"encapsed_string", "string"}),
}

SIMPLE = {"n": "\n", "r": "\r", "t": "\t", '"': '"', "\\": "\\", "'": "'", "$": "$",
          "b": "\b", "f": "\f", "0": "\0"}


def decode(language, body):
    """A literal's body (between its quotes) with its escapes decoded."""
    if language == "php":
        pattern = r"\\u\{([0-9a-fA-F]+)\}|\\(.)"
    elif language == "csharp":
        pattern = r"\\u([0-9a-fA-F]{4})|\\U([0-9a-fA-F]{8})|\\(.)"
    else:
        pattern = r"\\u([0-9a-fA-F]{4})|\\(.)"
    units = []

    def escape(match):
        groups = [g for g in match.groups()]
        *codes, simple = groups
        for code in codes:
            if code is not None:
                return chr(int(code, 16))
        if simple not in SIMPLE or (simple == "$" and language not in ("kotlin", "php")):
            raise ValueError(f"unknown escape \\{simple} in {language}")
        return SIMPLE[simple]

    text = re.sub(pattern, escape, body, flags=re.S)
    # Java and Kotlin write a character past the BMP as two \u escapes (a surrogate pair).
    del units
    return text.encode("utf-16", "surrogatepass").decode("utf-16")


def literal(language, node, source):
    raw = source[node.start_byte:node.end_byte].decode("utf-8")
    if language == "php" and raw.startswith("'"):
        return raw[1:-1].replace("\\'", "'").replace("\\\\", "\\")
    if not (raw.startswith('"') and raw.endswith('"')):
        raise ValueError(f"not a plain double-quoted literal: {raw!r}")
    body = raw[1:-1]
    if language in ("kotlin", "php") and re.search(r"(?<!\\)(\\\\)*\$", body):
        raise ValueError(f"an unescaped $ would interpolate: {raw!r}")
    return decode(language, body)


CALLS = {
    "java": ("method_invocation", "name"),
    "kotlin": ("call_expression", None),
    "csharp": ("invocation_expression", "function"),
    "php": ("member_call_expression", "name"),
}


def call_name(language, node, source):
    kind, field = CALLS[language]
    if node.type != kind:
        return None
    target = node.child_by_field_name(field) if field else node.children[0]
    if target is None:
        return None
    text = source[target.start_byte:target.end_byte].decode("utf-8")
    return re.split(r"[.\s]", text.replace("->", "."))[-1]


def main():
    language, path = sys.argv[1], sys.argv[2]
    module_name, function, string_kinds = LANGUAGES[language]
    module = __import__(module_name)
    parser = Parser(Language(getattr(module, function)()))
    source = open(path, "rb").read()
    tree = parser.parse(source)
    errors, strings, calls = [], [], []
    stack = [tree.root_node]
    while stack:
        node = stack.pop()
        if node.is_error or node.is_missing:
            errors.append(f"{node.type} at {node.start_point} .. {node.end_point}")
        if node.type in string_kinds:
            strings.append(literal(language, node, source))
            continue
        name = call_name(language, node, source)
        if name:
            calls.append(name)
        stack.extend(reversed(node.children))
    print(json.dumps({"errors": errors, "strings": strings, "calls": calls}))


if __name__ == "__main__":
    main()
