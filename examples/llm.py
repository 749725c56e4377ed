"""Train a small GPT on a text that ships with the repository, on the vulkan
device, then print a sample from it.

    tokens: characters of examples/data/alice.txt (Lewis Carroll, public domain)
    GPT(dim, layers, heads, block):
        token + position embeddings
        layers x [x + attn(LayerNorm(x)), x + MLP(LayerNorm(x))]
            attn: causal, through F.scaled_dot_product_attention
            MLP:  Linear(dim, 4 dim) -> GELU -> Linear(4 dim, dim)
        LayerNorm -> Linear(dim, vocab), weight tied to the token embedding
    loss = cross entropy of the next character; AdamW; clip_grad_norm_

Every op runs natively: `TORCHVULKAN_STRICT=1 python examples/llm.py` raises
on any CPU fallback. `--steps 20 --dim 32 --layers 1` is a quick run.
"""

import argparse
import math
import time
from pathlib import Path

import torch
import torch.nn.functional as F
from torch import nn

import torchvulkan

TEXT = Path(__file__).resolve().parent / "data" / "alice.txt"


class Block(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.ln1 = nn.LayerNorm(dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.ln2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x):
        batch, length, dim = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(dim, dim=2)
        q, k, v = (t.view(batch, length, self.heads, dim // self.heads).transpose(1, 2) for t in (q, k, v))
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.proj(y.transpose(1, 2).reshape(batch, length, dim))
        return x + self.mlp(self.ln2(x))


class GPT(nn.Module):
    def __init__(self, vocab, dim, layers, heads, block):
        super().__init__()
        self.block = block
        self.tokens = nn.Embedding(vocab, dim)
        self.positions = nn.Embedding(block, dim)
        self.blocks = nn.Sequential(*[Block(dim, heads) for _ in range(layers)])
        self.ln = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, vocab, bias=False)
        self.head.weight = self.tokens.weight  # weight tying
        for module in self.modules():
            if isinstance(module, (nn.Linear, nn.Embedding)):
                nn.init.normal_(module.weight, std=0.02)
            if isinstance(module, nn.Linear) and module.bias is not None:
                nn.init.zeros_(module.bias)

    def forward(self, idx):
        positions = torch.arange(idx.shape[1], device=idx.device)
        x = self.tokens(idx) + self.positions(positions)
        return self.head(self.ln(self.blocks(x)))


@torch.no_grad()
def sample(model, prompt, count, temperature, generator):
    """Samples `count` characters after `prompt` (token ids on the device).

    Gumbel-max: argmax(logits / T + g) with g = -log(-log(u)) draws from
    softmax(logits / T) with argmax alone on the device (torch.multinomial
    has no vulkan kernel). The uniform noise u is drawn on the CPU and copied
    over, because random sampling on the device (uniform_) is not native yet.
    """
    model.eval()
    idx = prompt
    for _ in range(count):
        logits = model(idx[:, -model.block:])[:, -1, :] / temperature
        u = torch.rand(logits.shape, generator=generator).clamp_(1e-9, 1 - 1e-9)
        gumbel = (-torch.log(-torch.log(u))).to(logits.device)
        idx = torch.cat([idx, (logits + gumbel).argmax(dim=-1, keepdim=True)], dim=1)
    model.train()
    return idx


def batches(data, block, batch, generator):
    while True:
        starts = torch.randint(len(data) - block - 1, (batch,), generator=generator)
        window = torch.stack([data[s:s + block + 1] for s in starts.tolist()])
        yield window[:, :-1], window[:, 1:]


def train(args, log=print):
    """Trains the model; returns it, the vocabulary and the loss of every step."""
    device = args.device or ("vulkan" if torchvulkan.is_available() else "cpu")
    torch.manual_seed(args.seed)
    text = TEXT.read_text()
    vocab = sorted(set(text))
    data = torch.tensor([vocab.index(c) for c in text], dtype=torch.int64)
    model = GPT(len(vocab), args.dim, args.layers, args.heads, args.block).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.1, betas=(0.9, 0.95))
    where = torchvulkan.get_device_name() if device.startswith("vulkan") else device
    count = sum(p.numel() for p in model.parameters())
    log(f"{len(text)} characters, vocabulary {len(vocab)}, {count} parameters, on {device} ({where})")

    losses = []
    generator = torch.Generator().manual_seed(args.seed)
    stream = batches(data, args.block, args.batch, generator)
    start = time.perf_counter()
    for step in range(args.steps):
        x, y = next(stream)
        x, y = x.to(device), y.to(device)
        # Cosine decay of the learning rate after a short warm-up.
        warmup = max(1, args.steps // 10)
        scale = (step + 1) / warmup if step < warmup else 0.5 * (1 + math.cos(math.pi * (step - warmup) / args.steps))
        for group in optimizer.param_groups:
            group["lr"] = args.lr * scale
        logits = model(x)
        loss = F.cross_entropy(logits.view(-1, logits.shape[-1]), y.reshape(-1))
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        if args.clip > 0:
            torch.nn.utils.clip_grad_norm_(model.parameters(), args.clip)
        optimizer.step()
        losses.append(loss.item())
        if step % args.log_every == 0 or step == args.steps - 1:
            log(f"step {step}: loss {losses[-1]:.4f} ({time.perf_counter() - start:.1f} s)")
    return model, vocab, losses


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--dim", type=int, default=48)
    parser.add_argument("--layers", type=int, default=2)
    parser.add_argument("--heads", type=int, default=4)
    parser.add_argument("--block", type=int, default=32, help="context length in characters")
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--clip", type=float, default=1.0, help="gradient norm clipping (0: none)")
    parser.add_argument("--sample", type=int, default=200, help="characters to sample at the end")
    parser.add_argument("--temperature", type=float, default=0.8)
    parser.add_argument("--log-every", type=int, default=25)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--device", default=None, help="default: vulkan, or cpu without a Vulkan driver")
    args = parser.parse_args()

    model, vocab, losses = train(args)
    device = next(model.parameters()).device
    tail = losses[-10:]
    print(f"loss {losses[0]:.4f} -> {sum(tail) / len(tail):.4f} (mean of the last {len(tail)} steps)")
    prompt = torch.tensor([[vocab.index(c) for c in "Alice "]], device=device)
    out = sample(model, prompt, args.sample, args.temperature, torch.Generator().manual_seed(args.seed))
    print("sample:", "".join(vocab[i] for i in out[0].tolist()))
    print("CPU fallbacks:", torchvulkan.fallback_counts() or "none")


if __name__ == "__main__":
    main()
