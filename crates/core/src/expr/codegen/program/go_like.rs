//! The like and the unlike in Go: the same transaction, token and resends as the boto3 and
//! JavaScript programs (see `like.rs`), the SDK's own retries off.

use super::Program;
use super::go::{go_head, go_program};
use crate::expr::codegen::langs::{GoClient, block as go_block, go_aligned, go_pairs, indented};
use crate::expr::codegen::{ClientSetup, Field};

/// The like in Go: `fields` the transaction's (without its token), `token` the Go expression
/// of the token, `refused` and `sends` as the other programs have them.
pub(super) fn like_go(
    setup: &ClientSetup,
    fields: &[(&'static str, Field)],
    token: &str,
    refused: &str,
    sends: u32,
) -> Program {
    let client = GoClient::new(setup, &["config.WithRetryMaxAttempts(1)"]);
    let mut pairs = go_pairs(fields);
    pairs.push((
        "ClientRequestToken".to_owned(),
        "aws.String(token)".to_owned(),
    ));
    let body = go_aligned(pairs);
    let input = go_block("&dynamodb.TransactWriteItemsInput{", &body, "}", "\t", "");
    let code = format!(
        "{GO_LIKE_HEAD}{}{GO_FRESH}\nfunc main() {{\n{}\ttoken := {token}\n\trefused := {refused}\n\tconst sends = {sends}\n\tunanswered := false\n\tvar last error\n\tlastCode := \"\"\n\tfor attempt := 1; attempt <= sends; attempt++ {{\n\t\t_, err := client.TransactWriteItems(ctx, {})\n{GO_LIKE_TAIL}",
        go_head(
            &client,
            &["crypto/rand", "github.com/aws/aws-sdk-go-v2/aws", "time",],
        ),
        client.lines,
        indented(&input, "\t\t")
    );
    go_program("like.go", code)
}

const GO_LIKE_HEAD: &str = "\
// A like, whole: one TransactWriteItems with a ClientRequestToken. A lost answer is sent again
// with the same token, which DynamoDB applies once within ten minutes, so it never counts twice.
// Applied: exit 0. Cancelled (its reasons said): exit 1. Refused: exit 1 (bad input 2). Still no
// answer after the last send: the outcome is unknown, exit 3.
";

const GO_FRESH: &str = "
// fresh is a new random token (a version 4 UUID).
func fresh() string {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		fmt.Fprintln(os.Stderr, \"not sent: no random token:\", err)
		os.Exit(2)
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf(\"%x-%x-%x-%x-%x\", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}

// resend is whether the server asked for a wait (throttled) or the same token is in progress:
// the program sends again, with the same token, and says so.
func resend(code string) bool {
	switch code {
	case \"ThrottlingException\", \"ProvisionedThroughputExceededException\",
		\"RequestLimitExceeded\", \"TransactionInProgressException\":
		return true
	}
	return false
}
";

const GO_LIKE_TAIL: &str = "\t\tif err == nil {
			fmt.Println(text(map[string]any{\"applied\": true, \"token\": token, \"sends\": attempt}))
			return
		}
		var cancelled *types.TransactionCanceledException
		if errors.As(err, &cancelled) {
			reasons := []string{}
			for _, reason := range cancelled.CancellationReasons {
				code := \"None\"
				if reason.Code != nil {
					code = *reason.Code
				}
				reasons = append(reasons, code)
			}
			why := \"cancelled\"
			if len(reasons) > 0 && reasons[0] == \"ConditionalCheckFailed\" {
				why = refused
			}
			fmt.Fprintln(os.Stderr, why+\"; nothing was written; reasons:\", text(reasons))
			os.Exit(1)
		}
		if unsigned(err) && !unanswered {
			fmt.Fprintln(os.Stderr, \"not sent:\", err)
			os.Exit(2)
		}
		status, code := failure(err)
		if status >= 400 && status < 500 && !resend(code) {
			// After a send with no answer, a refusal does not say the first did not apply.
			if unanswered {
				fmt.Fprintln(os.Stderr, \"outcome unknown (it may have been applied once, never twice):\", err)
				os.Exit(3)
			}
			fmt.Fprintln(os.Stderr, \"refused:\", code, err)
			if code == \"ValidationException\" {
				os.Exit(2)
			}
			os.Exit(1)
		}
		lost := status == 0 || status >= 500
		unanswered = unanswered || lost
		last, lastCode = err, code
		if attempt < sends {
			why := \"ended without an answer:\"
			if !lost {
				why = \"was answered \" + code + \":\"
			}
			fmt.Fprintln(os.Stderr, \"send\", attempt, why, err, \"- sending again with the same token\")
			time.Sleep(time.Duration(200*attempt) * time.Millisecond)
		}
	}
	// Every send answered, throttled: nothing was applied.
	if !unanswered && lastCode != \"TransactionInProgressException\" {
		fmt.Fprintln(os.Stderr, \"throttled, nothing was written:\", last)
		os.Exit(1)
	}
	fmt.Fprintln(os.Stderr, \"outcome unknown (it may have been applied once, never twice):\", last)
	os.Exit(3)
}
";
