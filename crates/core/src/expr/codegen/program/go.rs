//! Whole programs in Go (the AWS SDK for Go v2), written for the SDK as old as Debian's
//! (v1.17, built offline in GOPATH mode) and as new as today's: the counter write and a read's
//! paging loop here, the like and the reconcile beside. Every program prints what the server
//! sent as DynamoDB JSON (`shown`) and sorts an error as the other targets do: refused (4xx),
//! not sent (no credentials), or unknown.
//!
//! One difference: a failed condition's item. `ReturnValuesOnConditionCheckFailure` on a
//! single write came to the Go SDK after v1.17, so the program reads the item again
//! (consistently) and says it was read after the refusal.

use super::Program;
use crate::expr::codegen::langs::{
    GoClient, block as go_block, go_aligned, go_fields, go_imports, go_pairs, indented,
};
use crate::expr::codegen::{ClientSetup, Request, Target};

/// `shown` and `failure`: DynamoDB JSON of what the server sent, and an error's HTTP status
/// and code. Shared by every Go program.
pub(super) const GO_HELPERS: &str = "
// A reader that stops reading (`| head`) changes nothing of what was done: a write to a closed
// pipe fails quietly instead of ending the program.
func init() {
	signal.Ignore(syscall.SIGPIPE)
}

// shown is a value as DynamoDB JSON, binary values in base64 as the API writes them.
func shown(value types.AttributeValue) map[string]any {
	switch v := value.(type) {
	case *types.AttributeValueMemberS:
		return map[string]any{\"S\": v.Value}
	case *types.AttributeValueMemberN:
		return map[string]any{\"N\": v.Value}
	case *types.AttributeValueMemberBOOL:
		return map[string]any{\"BOOL\": v.Value}
	case *types.AttributeValueMemberNULL:
		return map[string]any{\"NULL\": v.Value}
	case *types.AttributeValueMemberB:
		return map[string]any{\"B\": v.Value}
	case *types.AttributeValueMemberSS:
		return map[string]any{\"SS\": v.Value}
	case *types.AttributeValueMemberNS:
		return map[string]any{\"NS\": v.Value}
	case *types.AttributeValueMemberBS:
		return map[string]any{\"BS\": v.Value}
	case *types.AttributeValueMemberL:
		items := make([]any, 0, len(v.Value))
		for _, item := range v.Value {
			items = append(items, shown(item))
		}
		return map[string]any{\"L\": items}
	case *types.AttributeValueMemberM:
		return map[string]any{\"M\": shownItem(v.Value)}
	}
	return map[string]any{}
}

// shownItem is an item as DynamoDB JSON.
func shownItem(item map[string]types.AttributeValue) map[string]any {
	out := make(map[string]any, len(item))
	for name, value := range item {
		out[name] = shown(value)
	}
	return out
}

// text is a value as one line of JSON.
func text(value any) string {
	line, err := json.Marshal(value)
	if err != nil {
		return fmt.Sprint(value)
	}
	return string(line)
}

// failure is an error's HTTP status (0 when no answer came) and the server's error code.
func failure(err error) (int, string) {
	status, code := 0, \"\"
	var response *awshttp.ResponseError
	if errors.As(err, &response) {
		status = response.HTTPStatusCode()
	}
	var api smithy.APIError
	if errors.As(err, &api) {
		code = api.ErrorCode()
	}
	return status, code
}

// unsigned is whether err is a request never sent: no credentials, or no connection made.
func unsigned(err error) bool {
	var signing *v4.SigningError
	return errors.As(err, &signing) || errors.Is(err, syscall.ECONNREFUSED)
}
";

/// The imports every program with [`GO_HELPERS`] needs, besides the client's.
pub(super) const GO_HELPER_IMPORTS: [&str; 12] = [
    "context",
    "encoding/json",
    "errors",
    "fmt",
    "os",
    "os/signal",
    "syscall",
    "github.com/aws/aws-sdk-go-v2/aws/signer/v4",
    "github.com/aws/aws-sdk-go-v2/aws/transport/http",
    "github.com/aws/aws-sdk-go-v2/service/dynamodb",
    "github.com/aws/aws-sdk-go-v2/service/dynamodb/types",
    "github.com/aws/smithy-go",
];

/// A Go program's head: `package main`, the imports of the helpers, the client's and `extra`,
/// and the helpers.
pub(super) fn go_head(client: &GoClient, extra: &[&'static str]) -> String {
    let mut paths: Vec<&str> = GO_HELPER_IMPORTS.to_vec();
    paths.extend(client.imports.iter().copied());
    paths.extend(extra.iter().copied());
    let imports = go_imports(&paths).replace(
        "\t\"github.com/aws/aws-sdk-go-v2/aws/transport/http\"",
        "\tawshttp \"github.com/aws/aws-sdk-go-v2/aws/transport/http\"",
    );
    format!("package main\n\n{imports}{GO_HELPERS}")
}

/// A Go program, saved as `file`; built, then run (`go run` would say every failure as exit
/// 1, where the program's own exit says applied, refused or unknown).
pub(super) fn go_program(file: &'static str, code: String) -> Program {
    let binary = file.trim_end_matches(".go");
    Program {
        target: Target::Go,
        code,
        file: file.to_owned(),
        run: format!(
            "go mod init example && go mod tidy && go build -o {binary} {file} && ./{binary}   (with Debian's golang-github-aws-aws-sdk-go-v2-dev instead: GO111MODULE=off GOPATH=/usr/share/gocode go build -o {binary} {file} && ./{binary})"
        ),
    }
}

impl Request {
    /// The counter write in Go; `once`: the SDK's retries off. The table and the key are
    /// named once, for the write and for the read after a failed condition.
    pub(super) fn counter_go(&self, setup: &ClientSetup, once: bool) -> Program {
        let extra: &[&str] = if once {
            &["config.WithRetryMaxAttempts(1)"]
        } else {
            &[]
        };
        let client = GoClient::new(setup, extra);
        let mut named = String::new();
        let pairs = go_pairs(&self.call().fields)
            .into_iter()
            .map(|(name, value)| match name.as_str() {
                "TableName" => {
                    let table = (value.strip_prefix("aws.String("))
                        .and_then(|t| t.strip_suffix(')'))
                        .unwrap_or(&value);
                    named.push_str(&format!("\ttable := {table}\n"));
                    (name, "aws.String(table)".to_owned())
                }
                "Key" => {
                    named.push_str(&format!("\tkey := {}\n", indented(&value, "\t")));
                    (name, "key".to_owned())
                }
                _ => (name, value),
            })
            .collect();
        let body = go_aligned(pairs);
        let input = indented(
            &go_block("&dynamodb.UpdateItemInput{", &body, "}", "\t", ""),
            "\t",
        );
        let note = if once { GO_ONCE } else { "" };
        let code = format!(
            "{GO_COUNTER_HEAD}{}\nfunc main() {{\n{note}{}{named}\tresponse, err := client.UpdateItem(ctx, {input})\n{GO_COUNTER_TAIL}",
            go_head(&client, &["github.com/aws/aws-sdk-go-v2/aws"]),
            client.lines
        );
        go_program("counter_write.go", code)
    }

    /// A query's or a scan's paging loop in Go.
    pub(super) fn paged_go(&self, setup: &ClientSetup) -> Program {
        let client = GoClient::new(setup, &[]);
        let call = self.call();
        let input = go_block(
            &format!("&dynamodb.{}Input{{", call.api.name),
            &go_fields(&call.fields),
            "}",
            "\t",
            "",
        );
        let code = format!(
            "{GO_PAGED_HEAD}{}\nfunc main() {{\n{}\tinput := {}\n\titems, pages := 0, 0\n\tfor {{\n\t\tpage, err := client.{}(ctx, input)\n{GO_PAGED_TAIL}",
            go_head(&client, &["github.com/aws/aws-sdk-go-v2/aws"]),
            client.lines,
            indented(&input, "\t"),
            call.api.name
        );
        go_program("read_pages.go", code)
    }
}

const GO_PAGED_HEAD: &str = "\
// A read, whole: every page (LastEvaluatedKey given back as ExclusiveStartKey until there is
// none), each item printed as a line of DynamoDB JSON; the items and pages counted on stderr.
";

const GO_PAGED_TAIL: &str = "		if err != nil {
			fmt.Fprintln(os.Stderr, \"the read failed after\", items, \"items:\", err)
			os.Exit(2)
		}
		pages++
		for _, item := range page.Items {
			fmt.Println(text(shownItem(item)))
			items++
		}
		if len(page.LastEvaluatedKey) == 0 {
			break
		}
		input.ExclusiveStartKey = page.LastEvaluatedKey
	}
	fmt.Fprintln(os.Stderr, items, \"items,\", pages, \"pages\")
}
";

const GO_COUNTER_HEAD: &str = "\
// A counter write, whole: the server's new value printed (exit 0); a failed condition
// reported with the item as read again after it (exit 1); refused (exit 1, bad input 2); an
// outcome that cannot be known (exit 3).
";

const GO_ONCE: &str =
    "	// This write is not safe to repeat: sent again after a lost answer, it would count twice.
	// The SDK retries on its own, so it is sent once; on an unknown outcome, read the item first.
";

const GO_COUNTER_TAIL: &str = "	if err == nil {
		fmt.Println(text(shownItem(response.Attributes)))
		return
	}
	var failed *types.ConditionalCheckFailedException
	if errors.As(err, &failed) {
		item, readErr := client.GetItem(ctx, &dynamodb.GetItemInput{
			TableName:      aws.String(table),
			Key:            key,
			ConsistentRead: aws.Bool(true),
		})
		if readErr != nil {
			fmt.Fprintln(os.Stderr, \"condition failed, nothing written; the item could not be read:\", readErr)
			os.Exit(1)
		}
		fmt.Fprintln(os.Stderr, \"condition failed, nothing written; the item now (read after):\", text(shownItem(item.Item)))
		os.Exit(1)
	}
	if unsigned(err) {
		fmt.Fprintln(os.Stderr, \"not sent:\", err)
		os.Exit(2)
	}
	status, code := failure(err)
	if status >= 400 && status < 500 {
		fmt.Fprintln(os.Stderr, \"refused:\", code, err)
		if code == \"ValidationException\" {
			os.Exit(2)
		}
		os.Exit(1)
	}
	fmt.Fprintln(os.Stderr, \"outcome unknown (it may have been applied; not sent again):\", err)
	os.Exit(3)
}
";
