// SPDX-License-Identifier: UNLICENSED
pragma solidity ^0.8.20;

import "./IERC20Minimal.sol";

/// @title SandboxComet
/// @notice Compound-V3-like market, supply side of the base asset only. The supply rate is
///         per second, scaled 1e18, set by the owner (a flat curve: `getSupplyRate` ignores the
///         utilization argument). Balances grow through `baseSupplyIndex`
///         (index += index × rate × Δt / 1e18 at each accrual). Interest is paid out of the
///         market's own token balance, so the deployer seeds it with liquidity.
contract SandboxComet {
    uint256 internal constant FACTOR_SCALE = 1e18;

    address public immutable baseToken;
    uint8 public immutable decimals;
    string public constant name = "Compound Sandbox USDC";
    string public constant symbol = "cUSDCv3";
    address public owner;

    uint64 public supplyRatePerSecond;
    /// @notice Reported utilization (1e18 = 100%); no borrowing exists in the sandbox.
    uint64 public utilization;
    uint256 public baseSupplyIndex = FACTOR_SCALE;
    uint40 public lastAccrualTime;

    mapping(address => uint256) public principalOf;
    uint256 public totalPrincipal;

    event Supply(address indexed from, address indexed dst, uint256 amount);
    event Withdraw(address indexed src, address indexed to, uint256 amount);
    event SupplyRateUpdated(uint64 ratePerSecond);
    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    error NotOwner();
    error ZeroAddress();
    error UnsupportedAsset();
    error InvalidAmount();
    error InsufficientBalance();
    error TransferFailed();

    constructor(address baseToken_, address owner_) {
        if (owner_ == address(0) || baseToken_ == address(0)) revert ZeroAddress();
        baseToken = baseToken_;
        decimals = IERC20Minimal(baseToken_).decimals();
        owner = owner_;
        lastAccrualTime = uint40(block.timestamp);
        emit OwnershipTransferred(address(0), owner_);
    }

    modifier onlyOwner() {
        if (msg.sender != owner) revert NotOwner();
        _;
    }

    // ---------------------------------------------------------------- admin

    function transferOwnership(address newOwner) external onlyOwner {
        if (newOwner == address(0)) revert ZeroAddress();
        emit OwnershipTransferred(owner, newOwner);
        owner = newOwner;
    }

    /// @notice Set the per-second supply rate (1e18 scale); interest so far is accrued first.
    function setSupplyRate(uint64 ratePerSecond) external onlyOwner {
        accrue();
        supplyRatePerSecond = ratePerSecond;
        emit SupplyRateUpdated(ratePerSecond);
    }

    function setUtilization(uint64 utilization_) external onlyOwner {
        utilization = utilization_;
    }

    // ---------------------------------------------------------------- user

    function supply(address asset, uint256 amount) external {
        if (asset != baseToken) revert UnsupportedAsset();
        if (amount == 0) revert InvalidAmount();
        accrue();
        if (!IERC20Minimal(asset).transferFrom(msg.sender, address(this), amount)) revert TransferFailed();
        uint256 principal = (amount * FACTOR_SCALE) / baseSupplyIndex;
        principalOf[msg.sender] += principal;
        totalPrincipal += principal;
        emit Supply(msg.sender, msg.sender, amount);
    }

    /// @notice Withdraw `amount` of the base asset; type(uint256).max withdraws the whole balance.
    function withdraw(address asset, uint256 amount) external {
        if (asset != baseToken) revert UnsupportedAsset();
        if (amount == 0) revert InvalidAmount();
        accrue();
        uint256 principal = principalOf[msg.sender];
        uint256 balance = _presentValue(principal, baseSupplyIndex);
        uint256 toWithdraw = amount == type(uint256).max ? balance : amount;
        if (toWithdraw > balance) revert InsufficientBalance();
        uint256 burned = toWithdraw == balance ? principal : _ceilDiv(toWithdraw * FACTOR_SCALE, baseSupplyIndex);
        if (burned > principal) burned = principal;
        principalOf[msg.sender] = principal - burned;
        totalPrincipal -= burned;
        if (!IERC20Minimal(asset).transfer(msg.sender, toWithdraw)) revert TransferFailed();
        emit Withdraw(msg.sender, msg.sender, toWithdraw);
    }

    /// @notice Bring `baseSupplyIndex` up to the current block.
    function accrue() public {
        baseSupplyIndex = _currentIndex();
        lastAccrualTime = uint40(block.timestamp);
    }

    // ---------------------------------------------------------------- views

    function balanceOf(address account) external view returns (uint256) {
        return _presentValue(principalOf[account], _currentIndex());
    }

    function totalSupply() external view returns (uint256) {
        return _presentValue(totalPrincipal, _currentIndex());
    }

    function getUtilization() external view returns (uint256) {
        return utilization;
    }

    function getSupplyRate(uint256) external view returns (uint64) {
        return supplyRatePerSecond;
    }

    // ---------------------------------------------------------------- internals

    function _currentIndex() private view returns (uint256) {
        uint256 elapsed = block.timestamp - lastAccrualTime;
        return baseSupplyIndex + (baseSupplyIndex * supplyRatePerSecond * elapsed) / FACTOR_SCALE;
    }

    function _presentValue(uint256 principal, uint256 index) private pure returns (uint256) {
        return (principal * index) / FACTOR_SCALE;
    }

    function _ceilDiv(uint256 a, uint256 b) private pure returns (uint256) {
        return (a + b - 1) / b;
    }
}
