"""The course's tiny transformers: training makes readable attention patterns, and the shipped weights show them."""
import os
import re

import torch

from attnlab import tiny_transformer as tt

ATTNLAB = os.path.join(os.path.dirname(__file__), os.pardir, "attnlab")


def anti_diagonal_mass(model) -> float:
    """Best head's mean weight on key S-1-i for query i, over 64 fresh reversal inputs."""
    tokens = torch.randint(0, 10, (64, tt.SEQ_LEN), generator=torch.Generator().manual_seed(123))
    with torch.no_grad():
        _, weights = model(tokens, causal=False)  # [L, B, H, S, S]
    seq = weights.shape[-1]
    picked = weights[..., torch.arange(seq), torch.arange(seq - 1, -1, -1)]  # [L, B, H, S]
    return picked.mean(dim=(1, 3)).max().item()


def copy_offset_mass(model) -> float:
    """Best head's mean weight, over the queries that predict the second copy (positions 8..15), on the key
    8 positions back: the digit to write next. Over 64 fresh copy inputs with the causal mask."""
    digits = torch.randint(0, 10, (64, tt.SEQ_LEN), generator=torch.Generator().manual_seed(321))
    tokens = torch.cat([digits, torch.full((64, 1), tt.SEP), digits[:, :-1]], dim=1)
    with torch.no_grad():
        _, weights = model(tokens, causal=True)
    queries = torch.arange(tt.SEQ_LEN, 2 * tt.SEQ_LEN)
    picked = weights[..., queries, queries - tt.SEQ_LEN]  # [L, B, H, 8]
    return picked.mean(dim=(1, 3)).max().item()


def test_brief_reversal_training_draws_the_anti_diagonal():
    torch.set_num_threads(1)
    torch.manual_seed(0)
    baseline = anti_diagonal_mass(tt.new_model("reverse").eval())
    model, accuracy, seconds = tt.train("reverse", steps=60, seed=0)
    trained = anti_diagonal_mass(model)
    print(f"reverse: 60 steps in {seconds:.1f} s, accuracy {accuracy:.3f}, "
          f"anti-diagonal mass {baseline:.2f} (random init) -> {trained:.2f}")
    assert baseline < 0.3, "a random model should spread its attention (about 1/8 per key)"
    assert trained > 0.6 and trained > 2 * baseline
    assert accuracy > 0.9


def test_brief_copy_training_looks_back_one_copy():
    torch.set_num_threads(1)
    torch.manual_seed(0)
    baseline = copy_offset_mass(tt.new_model("copy").eval())
    model, accuracy, seconds = tt.train("copy", steps=100, seed=0)
    trained = copy_offset_mass(model)
    print(f"copy: 100 steps in {seconds:.1f} s, accuracy {accuracy:.3f}, offset mass {baseline:.2f} -> {trained:.2f}")
    assert baseline < 0.3
    assert trained > 0.6
    assert accuracy > 0.9


def test_shipped_weights_load_and_show_the_patterns():
    assert os.path.getsize(tt.WEIGHTS_PATH) <= 2 * 1024 * 1024
    reverse, copy = tt.load_trained("reverse"), tt.load_trained("copy")
    assert anti_diagonal_mass(reverse) > 0.8
    assert copy_offset_mass(copy) > 0.8
    # Predictions, checked against targets built here rather than by the library.
    digits = torch.randint(0, 10, (256, tt.SEQ_LEN), generator=torch.Generator().manual_seed(7))
    with torch.no_grad():
        logits, _ = reverse(digits)
    assert (logits.argmax(-1) == digits.flip(1)).float().mean().item() > 0.99
    tokens = torch.cat([digits, torch.full((256, 1), tt.SEP), digits[:, :-1]], dim=1)
    with torch.no_grad():
        logits, _ = copy(tokens, causal=True)
    assert (logits[:, tt.SEQ_LEN:].argmax(-1) == digits).float().mean().item() > 0.99


def test_maps_are_softmax_rows_and_the_causal_mask_hides_the_future():
    model = tt.load_trained("copy")
    tokens, _, _ = tt.example("copy", 3)
    for causal in (False, True):
        weights = tt.attention_maps(model, tokens, causal)
        assert weights.shape == (model.num_layers, model.num_heads, len(tokens), len(tokens))
        torch.testing.assert_close(weights.sum(-1), torch.ones(weights.shape[:-1]))
        future = torch.ones(len(tokens), len(tokens), dtype=torch.bool).triu(1)
        if causal:
            assert weights[..., future].abs().max().item() == 0.0
        else:
            assert weights[..., future].max().item() > 0.01


def test_examples_are_fixed_and_well_formed():
    a, b = tt.example("copy", 2), tt.example("copy", 2)
    assert all(torch.equal(x, y) for x, y in zip(a, b))
    tokens, targets, scored = tt.example("reverse", 0)
    assert torch.equal(targets, tokens.flip(0)) and bool(scored.all())
    tokens, targets, scored = tt.example("copy", 0)
    assert int(tokens[tt.SEQ_LEN]) == tt.SEP
    assert torch.equal(targets[scored], tokens[: tt.SEQ_LEN])


def test_attnlab_contains_no_graded_answer():
    """The helper package students may read must not define the exercises' functions."""
    forbidden = re.compile(r"^\s*(def|class)\s+(scaled_dot_product_attention|split_heads|merge_heads|repeat_kv|"
                           r"MultiHeadAttention|GroupedQueryAttention|MultiQueryAttention|causal_mask)\b", re.M)
    for name in os.listdir(ATTNLAB):
        if name.endswith(".py"):
            with open(os.path.join(ATTNLAB, name), encoding="utf-8") as handle:
                hit = forbidden.search(handle.read())
            assert hit is None, f"attnlab/{name} defines {hit.group(2)}"
