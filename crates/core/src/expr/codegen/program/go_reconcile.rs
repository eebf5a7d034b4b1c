//! The reconcile in Go: the same reads and the same JSON lines as the boto3 and JavaScript
//! programs (see `reconcile.rs`); drifts computed exactly with `math/big`.

use super::Program;
use super::go::{go_head, go_program};
use crate::expr::codegen::langs::{GoClient, go_str};
use crate::expr::codegen::{ClientSetup, ReconcileShape};

impl ReconcileShape {
    /// The reconcile in Go, connecting as `setup` says.
    pub(super) fn reconcile_go(&self, setup: &ClientSetup) -> Program {
        let client = GoClient::new(setup, &[]);
        let constants = [
            ("table", go_str(&self.table)),
            ("pkName", go_str(&self.keys.0)),
            ("skName", go_str(&self.keys.1)),
            ("tallyName", go_str(&self.tally)),
            ("parentSK", go_str(&self.parent_sk)),
            ("parentPrefix", go_str(&self.parent_prefix)),
            ("childPrefix", go_str(&self.child_prefix)),
            ("only", go_str(self.only.as_deref().unwrap_or_default())),
            ("hasOnly", self.only.is_some().to_string()),
        ];
        let constants: String = (constants.iter())
            .flat_map(|(name, value)| ["const ", name, " = ", value, "\n"])
            .collect();
        let head = go_head(
            &client,
            &[
                "github.com/aws/aws-sdk-go-v2/aws",
                "math/big",
                "sort",
                "strconv",
                "strings",
            ],
        );
        let code = format!(
            "{GO_RECONCILE_HEAD}{head}\n{constants}{GO_RECONCILE_READS}\nfunc main() {{\n{}{GO_RECONCILE_MAIN}",
            client.lines
        );
        go_program("reconcile.go", code)
    }
}

const GO_RECONCILE_HEAD: &str = "\
// The reconcile, whole: each parent's stored tally beside its counted children; the drifted
// parents printed, a JSON line each (drift = stored - counted; a missing tally has none), exit 1
// when any drifted, 2 when the read failed. Every parent: one Scan, every page. One parent
// (only): a consistent GetItem and a COUNT Query, every page. Numbers compared exactly.
";

const GO_RECONCILE_READS: &str = "
type parent struct {
	pk      string
	stored  *string
	counted int64
}

type drifted struct {
	Pk      string  `json:\"pk\"`
	Stored  *string `json:\"stored\"`
	Counted string  `json:\"counted\"`
	Drift   *string `json:\"drift\"`
}

// textOf is the string (S) or number (N) named, or nil.
func textOf(item map[string]types.AttributeValue, name string, kind string) *string {
	switch v := item[name].(type) {
	case *types.AttributeValueMemberS:
		if kind == \"S\" {
			return &v.Value
		}
	case *types.AttributeValueMemberN:
		if kind == \"N\" {
			return &v.Value
		}
	}
	return nil
}

func countChildren(ctx context.Context, client *dynamodb.Client, pk string) (int64, error) {
	input := &dynamodb.QueryInput{
		TableName:                aws.String(table),
		KeyConditionExpression:   aws.String(\"#pk = :p AND begins_with(#sk, :c)\"),
		ExpressionAttributeNames: map[string]string{\"#pk\": pkName, \"#sk\": skName},
		ExpressionAttributeValues: map[string]types.AttributeValue{
			\":p\": &types.AttributeValueMemberS{Value: pk},
			\":c\": &types.AttributeValueMemberS{Value: childPrefix},
		},
		Select: types.SelectCount,
	}
	var counted int64
	for {
		page, err := client.Query(ctx, input)
		if err != nil {
			return 0, err
		}
		counted += int64(page.Count)
		if len(page.LastEvaluatedKey) == 0 {
			return counted, nil
		}
		input.ExclusiveStartKey = page.LastEvaluatedKey
	}
}

func everyParent(ctx context.Context, client *dynamodb.Client) ([]parent, error) {
	tallies := map[string]*string{}
	counted := map[string]int64{}
	input := &dynamodb.ScanInput{
		TableName:                aws.String(table),
		ProjectionExpression:     aws.String(\"#pk, #sk, #t\"),
		ExpressionAttributeNames: map[string]string{\"#pk\": pkName, \"#sk\": skName, \"#t\": tallyName},
	}
	for {
		page, err := client.Scan(ctx, input)
		if err != nil {
			return nil, err
		}
		for _, item := range page.Items {
			pk, sk := textOf(item, pkName, \"S\"), textOf(item, skName, \"S\")
			if pk == nil || sk == nil {
				continue
			}
			if *sk == parentSK && strings.HasPrefix(*pk, parentPrefix) {
				tallies[*pk] = textOf(item, tallyName, \"N\")
			}
			if strings.HasPrefix(*sk, childPrefix) {
				counted[*pk]++
			}
		}
		if len(page.LastEvaluatedKey) == 0 {
			break
		}
		input.ExclusiveStartKey = page.LastEvaluatedKey
	}
	pks := make([]string, 0, len(tallies))
	for pk := range tallies {
		pks = append(pks, pk)
	}
	sort.Strings(pks)
	parents := make([]parent, 0, len(pks))
	for _, pk := range pks {
		parents = append(parents, parent{pk, tallies[pk], counted[pk]})
	}
	return parents, nil
}

func oneParent(ctx context.Context, client *dynamodb.Client, pk string) ([]parent, error) {
	found, err := client.GetItem(ctx, &dynamodb.GetItemInput{
		TableName: aws.String(table),
		Key: map[string]types.AttributeValue{
			pkName: &types.AttributeValueMemberS{Value: pk},
			skName: &types.AttributeValueMemberS{Value: parentSK},
		},
		ConsistentRead: aws.Bool(true),
	})
	if err != nil {
		return nil, err
	}
	if found.Item == nil {
		fmt.Fprintln(os.Stderr, \"no parent\", text(pk), \"in\", table)
		os.Exit(1)
	}
	counted, err := countChildren(ctx, client, pk)
	if err != nil {
		return nil, err
	}
	return []parent{{pk, textOf(found.Item, tallyName, \"N\"), counted}}, nil
}

// driftOf is stored - counted as exact decimal text, and whether it is not zero.
func driftOf(stored string, counted int64) (string, bool) {
	r, ok := new(big.Rat).SetString(stored)
	if !ok {
		return stored + \" - \" + strconv.FormatInt(counted, 10), true
	}
	r.Sub(r, new(big.Rat).SetInt64(counted))
	if r.IsInt() {
		return r.Num().String(), r.Sign() != 0
	}
	// A decimal's denominator divides a power of ten: the shortest exact scale.
	for scale := 1; ; scale++ {
		shown := r.FloatString(scale)
		if back, _ := new(big.Rat).SetString(shown); back.Cmp(r) == 0 {
			return shown, true
		}
	}
}
";

const GO_RECONCILE_MAIN: &str = "\tvar parents []parent
	if hasOnly {
		parents, err = oneParent(ctx, client, only)
	} else {
		parents, err = everyParent(ctx, client)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, \"the read failed, nothing was checked:\", err)
		os.Exit(2)
	}
	drifts := 0
	for _, p := range parents {
		line := drifted{Pk: p.pk, Stored: p.stored, Counted: strconv.FormatInt(p.counted, 10)}
		if p.stored != nil {
			drift, off := driftOf(*p.stored, p.counted)
			if !off {
				continue
			}
			line.Drift = &drift
		}
		drifts++
		fmt.Println(text(line))
	}
	fmt.Fprintln(os.Stderr, len(parents), \"parents checked,\", drifts, \"drifted\")
	if drifts > 0 {
		os.Exit(1)
	}
}
";
