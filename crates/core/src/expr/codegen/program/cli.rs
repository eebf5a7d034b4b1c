//! Whole programs for the AWS CLI, as bash scripts: the counter write, the like (and unlike)
//! and a read through the CLI's own paging. The CLI says an error only as words on stderr
//! (`An error occurred (CODE) when calling …`), so the script reads the code there and sorts it
//! as the other programs do: refused, not sent (no credentials, a parameter the CLI refused),
//! or unknown (no answer, or a server error). Two differences: a failed condition's item is
//! read again after it (the CLI does not print `ALL_OLD`), and a read prints the CLI's merged
//! pages as one JSON document. Every user word is inside single quotes.

use super::Program;
use crate::expr::codegen::shell::shell_quote;
use crate::expr::codegen::{Api, Call, ClientSetup, Field, Request, Target, Transaction};

/// The script's head: what it does, in words; bash's strictness; a file for the CLI's errors.
fn head(what: &str, once: bool) -> String {
    let once = if once {
        "# This write is not safe to repeat: sent again after a lost answer, it would count twice.\n\
         # The CLI retries on its own, so it is sent once; on an unknown outcome, read the item first.\n\
         export AWS_MAX_ATTEMPTS=1\n"
    } else {
        ""
    };
    format!("#!/usr/bin/env bash\n{what}set -u\n{once}{ERRORS}")
}

const ERRORS: &str = "error=$(mktemp) || exit 2
trap 'rm -f \"$error\"' EXIT

# The error code the CLI said (`An error occurred (CODE) …`), or nothing when no answer came.
code_said() {
  sed -n 's/.*An error occurred (\\([^)]*\\)).*/\\1/p' \"$error\" | head -n 1
}

# Whether nothing was sent: no credentials, a parameter the CLI does not take, no connection.
not_sent() {
  grep -q -e 'Unable to locate credentials' -e 'Partial credentials' -e 'Parameter validation failed' \\
    -e 'Error parsing parameter' -e 'Unknown options' -e 'usage: aws' \\
    -e 'Could not connect to the endpoint URL' \"$error\"
}
";

fn program(file: &str, code: String) -> Program {
    Program {
        target: Target::Cli,
        code,
        file: file.to_owned(),
        run: format!("bash {file}   (the AWS CLI v2, or v1: pip install awscli)"),
    }
}

impl Request {
    /// The counter write as a bash script; `once`: the CLI's retries off.
    pub(super) fn counter_cli(&self, setup: &ClientSetup, once: bool) -> Program {
        let write = self.call().render(Target::Cli, setup);
        let key = self.operation.item().cloned().unwrap_or_default();
        let read = Call {
            api: Api {
                name: "GetItem",
                cli: "get-item",
                snake: "get_item",
                document: "GetCommand",
            },
            fields: vec![
                ("TableName", Field::Text(self.table.clone())),
                ("Key", Field::Item(key)),
            ],
        }
        .render(Target::Cli, setup);
        let code = format!(
            "{}\nif {write} \\\n  --query Attributes \\\n  --output json 2>\"$error\"; then\n  exit 0\nfi\ncode=$(code_said)\ncase \"$code\" in\n  ConditionalCheckFailedException)\n    echo \"condition failed, nothing written; the item now (read after):\" >&2\n    {} \\\n      --consistent-read \\\n      --query Item \\\n      --output json >&2\n    exit 1\n    ;;\n{}",
            head(COUNTER_HEAD, once),
            read,
            COUNTER_CASES.replace("REFUSALS", REFUSALS)
        );
        program("counter_write.sh", code)
    }

    /// A query or a scan through the CLI's own paging: every page read and merged.
    pub(super) fn paged_cli(&self, setup: &ClientSetup) -> Program {
        let read = self.call().render(Target::Cli, setup);
        let code = format!(
            "#!/usr/bin/env bash\n{PAGED_HEAD}set -u\nif {read} \\\n  --output json; then\n  exit 0\nfi\necho \"the read failed (the CLI said why above)\" >&2\nexit 2\n"
        );
        program("read_pages.sh", code)
    }
}

impl Transaction {
    /// The like as a bash script: its token (`token`: a bash word, or fresh), resent up to
    /// `sends` times; `refused` the words of a failed first condition.
    pub(super) fn like_cli(
        &self,
        setup: &ClientSetup,
        token: Option<&str>,
        refused: &str,
        sends: u32,
    ) -> Program {
        let mut transaction = self.clone();
        transaction.token = None;
        let write = transaction.call().render(Target::Cli, setup);
        let token = token.map_or_else(
            || "$(cat /proc/sys/kernel/random/uuid 2>/dev/null || uuidgen)".to_owned(),
            shell_quote,
        );
        let code = format!(
            "{}\nTOKEN={token}\nREFUSED={}\nSENDS={sends}\nunanswered=false\nlast=\nfor ((attempt = 1; attempt <= SENDS; attempt++)); do\n  if {} \\\n    --client-request-token \"$TOKEN\" >/dev/null 2>\"$error\"; then\n{}",
            head(LIKE_HEAD, true),
            shell_quote(refused),
            write,
            LIKE_CASES.replace("REFUSALS", REFUSALS)
        );
        program("like.sh", code)
    }
}

const COUNTER_HEAD: &str = "\
# A counter write, whole: the server's new value printed (exit 0); a failed condition
# reported with the item as read again after it (exit 1); refused (exit 1, bad input 2); an
# outcome that cannot be known (exit 3).
";

/// The error codes DynamoDB answers with 4xx for a request it did not apply (besides a failed
/// condition and a cancelled transaction, said apart): any other code, or none, may have
/// applied. The CLI says a code, never its HTTP status.
const REFUSALS: &str = "ResourceNotFoundException | AccessDeniedException | UnrecognizedClientException \\
    | IncompleteSignature* | InvalidSignatureException | MissingAuthenticationToken* | ExpiredToken* \\
    | IdempotentParameterMismatchException | ItemCollectionSizeLimitExceededException \\
    | TransactionConflictException | LimitExceededException | ReplicatedWriteConflictException";

const COUNTER_CASES: &str = "  ValidationException | SerializationException)
    echo \"refused: $(cat \"$error\")\" >&2
    exit 2
    ;;
  ThrottlingException | ProvisionedThroughputExceededException | RequestLimitExceeded | \\
    REFUSALS)
    echo \"refused: $(cat \"$error\")\" >&2
    exit 1
    ;;
  *)
    if not_sent; then
      echo \"not sent: $(cat \"$error\")\" >&2
      exit 2
    fi
    echo \"outcome unknown (it may have been applied; not sent again): $(cat \"$error\")\" >&2
    exit 3
    ;;
esac
";

const PAGED_HEAD: &str = "\
# A read, whole: the CLI follows every page itself (LastEvaluatedKey given back until there is
# none) and prints them merged as one JSON document: Items, Count, ScannedCount. A failed
# read exits 2.
";

const LIKE_HEAD: &str = "\
# A like, whole: one TransactWriteItems with a ClientRequestToken. A lost answer is sent again
# with the same token, which DynamoDB applies once within ten minutes, so it never counts twice.
# Applied: exit 0. Cancelled (its reasons said): exit 1. Refused: exit 1 (bad input 2). Still no
# answer after the last send: the outcome is unknown, exit 3. The CLI does not resend on its
# own: this script does, with the same token, and says so; also when the server asks for a
# wait (throttled) or the same token is still in progress.
";

const LIKE_CASES: &str = "    token=${TOKEN//\\\\/\\\\\\\\}
    printf '{\"applied\": true, \"token\": \"%s\", \"sends\": %d}\\n' \"${token//\\\"/\\\\\\\"}\" \"$attempt\"
    exit 0
  fi
  last=$(cat \"$error\")
  code=$(code_said)
  case \"$code\" in
    TransactionCanceledException)
      reasons=$(sed -n 's/.*reasons \\[\\([^]]*\\)\\].*/\\1/p' \"$error\" | head -n 1)
      why=cancelled
      case \"$reasons\" in ConditionalCheckFailed*) why=$REFUSED ;; esac
      echo \"$why; nothing was written; reasons: [\\\"${reasons//, /\\\",\\\"}\\\"]\" >&2
      exit 1
      ;;
    ThrottlingException | ProvisionedThroughputExceededException | RequestLimitExceeded | \\
      TransactionInProgressException)
      why=\"was answered $code:\"
      ;;
    ValidationException | SerializationException | REFUSALS)
      # After a send with no answer, a refusal does not say the first did not apply.
      if $unanswered; then
        echo \"outcome unknown (it may have been applied once, never twice): $last\" >&2
        exit 3
      fi
      echo \"refused: $last\" >&2
      case \"$code\" in ValidationException | SerializationException) exit 2 ;; esac
      exit 1
      ;;
    *)
      if not_sent && ! $unanswered; then
        echo \"not sent: $last\" >&2
        exit 2
      fi
      unanswered=true
      why=\"ended without an answer:\"
      ;;
  esac
  if ((attempt < SENDS)); then
    echo \"send $attempt $why $last - sending again with the same token\" >&2
    sleep \"0.$((2 * attempt))\"
  fi
done
# Every send answered, throttled: nothing was applied.
if ! $unanswered && [ \"$code\" != TransactionInProgressException ]; then
  echo \"throttled, nothing was written: $last\" >&2
  exit 1
fi
echo \"outcome unknown (it may have been applied once, never twice): $last\" >&2
exit 3
";
