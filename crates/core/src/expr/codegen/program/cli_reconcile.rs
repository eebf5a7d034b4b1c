//! The reconcile as a bash script with the AWS CLI: every parent by one Scan (the CLI follows
//! every page; an item a line of text, grouped by awk), or one parent by a consistent GetItem
//! and a COUNT Query (the CLI's Count of each page added up); each drift computed exactly,
//! digit by digit (bash's own arithmetic never touches a tally), printed as the other
//! reconciles print it, in key order. A key holding a tab or a new line cannot be read from
//! the CLI's text: the script says so (exit 2) instead of miscounting.

use super::Program;
use crate::expr::codegen::shell::shell_quote;
use crate::expr::codegen::{ClientSetup, ReconcileShape, Target};

impl ReconcileShape {
    /// The reconcile as a bash script, connecting as `setup` says.
    pub(super) fn reconcile_cli(&self, setup: &ClientSetup) -> Program {
        let constants = [
            ("TABLE", &self.table),
            ("PK", &self.keys.0),
            ("SK", &self.keys.1),
            ("TALLY", &self.tally),
            ("PARENT_SK", &self.parent_sk),
            ("PARENT_PREFIX", &self.parent_prefix),
            ("CHILD_PREFIX", &self.child_prefix),
        ];
        let mut lines: Vec<String> = (constants.iter())
            .map(|(name, value)| format!("{name}={}", shell_quote(value)))
            .collect();
        lines.push(format!(
            "ONLY={}",
            shell_quote(self.only.as_deref().unwrap_or_default())
        ));
        let environment = (setup.cli_environment())
            .map(|e| format!("export {e}\n"))
            .unwrap_or_default();
        let options = setup.cli_options().join(" ");
        let code = format!(
            "{HEAD}{}\n{environment}AWS=(aws dynamodb {options})\n{BODY}",
            lines.join("\n")
        );
        Program {
            target: Target::Cli,
            code,
            file: "reconcile.sh".to_owned(),
            run: "bash reconcile.sh   (the AWS CLI v2, or v1: pip install awscli)".to_owned(),
        }
    }
}

const HEAD: &str = "\
#!/usr/bin/env bash
# The reconcile, whole (bash and the AWS CLI): each parent's stored tally beside its counted
# children; the drifted parents printed, a JSON line each (drift = stored - counted, exact:
# digit by digit, never bash's own arithmetic on a tally), exit 1 when any drifted, 2 when the
# read failed. Every parent: one Scan (the CLI follows every page, an item a line of text). One
# parent (ONLY): a consistent GetItem and a COUNT Query (the CLI adds up the pages' Count).
set -u
export LC_ALL=C
";

const BODY: &str = "# Digits without leading zeros (0 for none).
trim() { local d=${1#\"${1%%[!0]*}\"}; printf '%s' \"${d:-0}\"; }
# a >= b for digit strings without leading zeros.
ge() { (( ${#1} != ${#2} )) && { (( ${#1} > ${#2} )); return; }; [[ $1 > $2 || $1 == \"$2\" ]]; }
# a + b and a - b (a >= b) for digit strings, digit by digit.
add() {
  local a=$1 b=$2 out= carry=0 i x
  while (( ${#a} < ${#b} )); do a=0$a; done
  while (( ${#b} < ${#a} )); do b=0$b; done
  for (( i = ${#a} - 1; i >= 0; i-- )); do
    x=$(( ${a:i:1} + ${b:i:1} + carry )); out=$(( x % 10 ))$out; carry=$(( x / 10 ))
  done
  (( carry )) && out=$carry$out
  trim \"$out\"
}
sub() {
  local a=$1 b=$2 out= borrow=0 i x
  while (( ${#b} < ${#a} )); do b=0$b; done
  for (( i = ${#a} - 1; i >= 0; i-- )); do
    x=$(( ${a:i:1} - ${b:i:1} - borrow ))
    if (( x < 0 )); then x=$(( x + 10 )); borrow=1; else borrow=0; fi
    out=$x$out
  done
  trim \"$out\"
}
# stored - counted, exactly: stored a DynamoDB number (a sign, digits, a point, an exponent),
# counted a whole number; the result as DynamoDB writes one (no exponent, no trailing zeros).
drift() {
  local s=$1 c=$2 minus= whole frac= exp=0 places digits n out
  [[ $s == [-+]* ]] && { [[ $s == -* ]] && minus=1; s=${s:1}; }
  if [[ $s == *[eE]* ]]; then exp=${s#*[eE]}; s=${s%%[eE]*}; fi
  whole=${s%%.*}; [[ $s == *.* ]] && frac=${s#*.}
  [[ $exp == [-+]* ]] || exp=+$exp
  exp=$(( ${exp:0:1}10#${exp:1} ))
  digits=$whole$frac; places=$(( ${#frac} - exp ))
  while (( places < 0 )); do digits=${digits}0; places=$(( places + 1 )); done
  digits=$(trim \"$digits\")
  n=$(trim \"$c\"); for (( i = 0; i < places; i++ )); do n=${n}0; done; n=$(trim \"$n\")
  if [[ -n $minus ]]; then out=-$(add \"$digits\" \"$n\")
  elif ge \"$digits\" \"$n\"; then out=$(sub \"$digits\" \"$n\")
  else out=-$(sub \"$n\" \"$digits\"); fi
  local sign=; [[ $out == -* ]] && { sign=-; out=${out:1}; }
  while (( ${#out} <= places )); do out=0$out; done
  local int=${out:0:${#out}-places} fr=${out:${#out}-places}
  fr=${fr%\"${fr##*[!0]}\"}
  [[ $int$fr =~ ^0*$ ]] && { printf '0'; return; }
  printf '%s%s%s' \"$sign\" \"$int\" \"${fr:+.$fr}\"
}

# A JSON string of any text.
json() {
  local s=${1//\\\\/\\\\\\\\}
  s=${s//\\\"/\\\\\\\"}; s=${s//$'\\t'/\\\\t}; s=${s//$'\\n'/\\\\n}; s=${s//$'\\r'/\\\\r}
  printf '\"%s\"' \"$s\"
}

NAMES=$(printf '{\"#pk\":%s,\"#sk\":%s,\"#t\":%s}' \"$(json \"$PK\")\" \"$(json \"$SK\")\" \"$(json \"$TALLY\")\")

# Every parent: pk, tally and counted children, tab-separated, a line each in key order.
every_parent() {
  local rows
  rows=$(\"${AWS[@]}\" scan --table-name \"$TABLE\" --projection-expression '#pk, #sk, #t' \\
    --expression-attribute-names \"$NAMES\" --output text \\
    --query \"Items[].[$(json \"$PK\").S, $(json \"$SK\").S, $(json \"$TALLY\").N]\") || return 2
  printf '%s\\n' \"$rows\" | PSK=$PARENT_SK PP=$PARENT_PREFIX CP=$CHILD_PREFIX awk -F'\\t' '
    NF != 3 { bad = 1; exit }
    $2 == ENVIRON[\"PSK\"] && index($1, ENVIRON[\"PP\"]) == 1 { tally[$1] = $3 }
    index($2, ENVIRON[\"CP\"]) == 1 { counted[$1]++ }
    END {
      if (bad) exit 3
      for (pk in tally) print pk \"\\t\" tally[pk] \"\\t\" (counted[pk] + 0)
    }' | sort -t $'\\t' -k1,1
  local status=(\"${PIPESTATUS[@]}\")
  (( status[1] == 3 )) && { echo \"a key holds a tab or a new line: the CLI's text cannot be read\" >&2; return 2; }
  return 0
}

# One parent: pk, tally and counted children, tab-separated; exit 1 when it is not there.
one_parent() {
  local key names values found pages
  key=$(printf '{%s:{\"S\":%s},%s:{\"S\":%s}}' \"$(json \"$PK\")\" \"$(json \"$ONLY\")\" \"$(json \"$SK\")\" \"$(json \"$PARENT_SK\")\")
  found=$(\"${AWS[@]}\" get-item --table-name \"$TABLE\" --key \"$key\" --consistent-read \\
    --output text --query \"[Item.$(json \"$PK\").S, Item.$(json \"$TALLY\").N]\") || return 2
  if [[ $found == None$'\\t'* ]]; then
    echo \"no parent $(json \"$ONLY\") in $TABLE\" >&2
    return 1
  fi
  names=$(printf '{\"#pk\":%s,\"#sk\":%s}' \"$(json \"$PK\")\" \"$(json \"$SK\")\")
  values=$(printf '{\":p\":{\"S\":%s},\":c\":{\"S\":%s}}' \"$(json \"$ONLY\")\" \"$(json \"$CHILD_PREFIX\")\")
  # The CLI prints one Count a page: they are added up.
  pages=$(\"${AWS[@]}\" query --table-name \"$TABLE\" --key-condition-expression '#pk = :p AND begins_with(#sk, :c)' \\
    --expression-attribute-names \"$names\" --expression-attribute-values \"$values\" \\
    --select COUNT --output text --query Count) || return 2
  local counted=0 n
  for n in $pages; do counted=$(( counted + n )); done
  printf '%s\\t%s\\t%s\\n' \"$ONLY\" \"${found#*$'\\t'}\" \"$counted\"
}

if [[ -n $ONLY ]]; then parents=$(one_parent); else parents=$(every_parent); fi
case $? in
  0) ;;
  1) exit 1 ;;
  *) echo \"the read failed, nothing was checked\" >&2; exit 2 ;;
esac
checked=0
drifted=0
while IFS=$'\\t' read -r pk stored counted; do
  [[ -z $pk ]] && continue
  checked=$(( checked + 1 ))
  if [[ $stored == None ]]; then
    stored=null
    difference=null
  else
    difference=$(drift \"$stored\" \"$counted\")
    [[ $difference == 0 ]] && continue
    stored=$(json \"$stored\")
    difference=$(json \"$difference\")
  fi
  drifted=$(( drifted + 1 ))
  printf '{\"pk\":%s,\"stored\":%s,\"counted\":%s,\"drift\":%s}\\n' \"$(json \"$pk\")\" \"$stored\" \"$(json \"$counted\")\" \"$difference\"
done <<< \"$parents\"
echo \"$checked parents checked, $drifted drifted\" >&2
exit $(( drifted > 0 ))
";
