"""Train the seed's MNIST network on the vulkan device and report test accuracy.

    SimpleNN(h) = Flatten -> Linear(784, h) -> ReLU -> Linear(h, 10)
    loss = CrossEntropyLoss, optimizer = Adam

Data: the real MNIST through torchvision when it is installed and can fetch
the files; otherwise (offline) scikit-learn's bundled handwritten digits,
8x8 images resized to 28x28. `--data digits` picks the bundled set directly.
Runs on the first Vulkan device (lavapipe when there is no GPU); on a machine
without any Vulkan driver it says so and uses the CPU.
"""

import argparse
import time

import torch
import torch.nn.functional as F
from torch import nn
from tqdm import tqdm

import torchvulkan


class SimpleNN(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.net = nn.Sequential(nn.Flatten(), nn.Linear(784, hidden), nn.ReLU(), nn.Linear(hidden, 10))

    def forward(self, x):
        return self.net(x)


def load_mnist():
    from torchvision import datasets

    train = datasets.MNIST("data", train=True, download=True)
    test = datasets.MNIST("data", train=False, download=True)

    def tensors(ds):
        return (ds.data.float() / 255.0 - 0.1307) / 0.3081, ds.targets

    return tensors(train), tensors(test), "MNIST"


def load_digits():
    from sklearn.datasets import load_digits

    digits = load_digits()
    images = torch.tensor(digits.images, dtype=torch.float32).unsqueeze(1) / 16.0
    images = F.interpolate(images, size=(28, 28), mode="bilinear", align_corners=False).squeeze(1)
    images = (images - images.mean()) / images.std()
    labels = torch.tensor(digits.target)
    order = torch.randperm(len(labels), generator=torch.Generator().manual_seed(0))
    images, labels = images[order], labels[order]
    split = int(0.8 * len(labels))
    return (images[:split], labels[:split]), (images[split:], labels[split:]), "scikit-learn digits (28x28)"


def load(data):
    if data in ("auto", "mnist"):
        try:
            return load_mnist()
        except Exception as error:  # no torchvision, or no network
            if data == "mnist":
                raise
            print(f"MNIST unavailable ({type(error).__name__}); using the bundled digits")
    return load_digits()


def accuracy(model, images, labels, device, batch):
    correct = torch.zeros((), dtype=torch.int64, device=device)
    with torch.no_grad():
        for i in range(0, len(labels), batch):
            x = images[i:i + batch].to(device)
            y = labels[i:i + batch].to(device)
            correct += (model(x).argmax(dim=1) == y).sum()
    return correct.item() / len(labels)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", choices=["auto", "mnist", "digits"], default="auto")
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--limit", type=int, default=0, help="use at most this many training images (quick runs)")
    parser.add_argument("--device", default=None, help="default: vulkan, or cpu without a Vulkan driver")
    args = parser.parse_args()

    device = args.device or ("vulkan" if torchvulkan.is_available() else "cpu")
    if device == "cpu" and args.device is None:
        print("No Vulkan device found: training on the CPU instead.")
    torch.manual_seed(0)
    (train_x, train_y), (test_x, test_y), name = load(args.data)
    if args.limit:
        train_x, train_y = train_x[:args.limit], train_y[:args.limit]
    where = torchvulkan.get_device_name() if device.startswith("vulkan") else device
    print(f"{name}: {len(train_y)} training / {len(test_y)} test images on {device} ({where})")

    model = SimpleNN(args.hidden).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    loss_fn = nn.CrossEntropyLoss()
    for epoch in range(args.epochs):
        order = torch.randperm(len(train_y))
        running = torch.zeros((), device=device)
        start = time.perf_counter()
        steps = range(0, len(train_y), args.batch)
        bar = tqdm(steps, desc=f"epoch {epoch + 1}/{args.epochs}", unit="batch")
        for step, i in enumerate(bar):
            index = order[i:i + args.batch]
            x, y = train_x[index].to(device), train_y[index].to(device)
            loss = loss_fn(model(x), y)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()
            running += loss.detach()
            if step % 50 == 49:  # read the loss back now and then, not every step
                seen = min(i + args.batch, len(train_y))
                bar.set_postfix(loss=f"{running.item() / (step + 1):.4f}",
                                img_s=f"{seen / (time.perf_counter() - start):.0f}")
        print(f"epoch {epoch + 1}: mean loss {running.item() / len(steps):.4f}")
    acc = accuracy(model, test_x, test_y, device, 1000)
    print(f"test accuracy: {acc * 100:.2f}%")
    fallbacks = torchvulkan.fallback_counts()
    print("CPU fallbacks:", fallbacks or "none")


if __name__ == "__main__":
    main()
