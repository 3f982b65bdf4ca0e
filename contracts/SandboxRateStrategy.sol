// SPDX-License-Identifier: UNLICENSED
pragma solidity ^0.8.20;

import {IERC20Minimal} from "./IERC20Minimal.sol";

/// @notice Aave v3.0 (`@aave/core-v3` 1.19) `DataTypes.CalculateInterestRatesParams`, field for field:
///         the Pool ABI-encodes this tuple when it asks a reserve's strategy for its rates.
struct CalculateInterestRatesParams {
    uint256 unbacked;
    uint256 liquidityAdded;
    uint256 liquidityTaken;
    uint256 totalStableDebt;
    uint256 totalVariableDebt;
    uint256 averageStableBorrowRate;
    uint256 reserveFactor;
    address reserve;
    address aToken;
}

/// @title SandboxRateStrategy
/// @notice Aave v3 `IReserveInterestRateStrategy` for the sandbox: the owner sets a target supply
///         (liquidity) rate per reserve and the strategy charges borrowers the variable rate that pays
///         it at the current utilisation, with Aave's own formula
///         `liquidityRate = overallBorrowRate × supplyUsage × (1 − reserveFactor)`.
///         Suppliers are therefore paid by real debt: without borrowers the liquidity rate is 0.
///         The Pool stores rates only when a reserve is touched (supply, withdraw, borrow, repay…):
///         a new target shows in `getReserveData` after the next such action. Sandbox only.
contract SandboxRateStrategy {
    uint256 internal constant RAY = 1e27;
    uint256 internal constant PERCENTAGE_FACTOR = 1e4;
    /// @notice Ceiling of the variable borrow rate (10,000 % APR): at a tiny utilisation the target is
    ///         not reached rather than charging borrowers an unbounded rate (the Pool stores rates as uint128).
    uint256 public constant MAX_VARIABLE_BORROW_RATE = 100 * RAY;

    address public owner;
    /// @notice Target liquidity rate per reserve: a yearly rate (APR) in ray, as `currentLiquidityRate`.
    mapping(address => uint256) public targetLiquidityRate;

    event TargetLiquidityRateSet(address indexed reserve, uint256 rate);
    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    error NotOwner();
    error ZeroAddress();
    error RateTooHigh();

    constructor(address owner_) {
        if (owner_ == address(0)) revert ZeroAddress();
        owner = owner_;
        emit OwnershipTransferred(address(0), owner_);
    }

    modifier onlyOwner() {
        if (msg.sender != owner) revert NotOwner();
        _;
    }

    function transferOwnership(address newOwner) external onlyOwner {
        if (newOwner == address(0)) revert ZeroAddress();
        emit OwnershipTransferred(owner, newOwner);
        owner = newOwner;
    }

    /// @param rate Target liquidity rate in ray (yearly, not per second).
    function setTargetLiquidityRate(address reserve, uint256 rate) external onlyOwner {
        if (rate > MAX_VARIABLE_BORROW_RATE) revert RateTooHigh();
        targetLiquidityRate[reserve] = rate;
        emit TargetLiquidityRateSet(reserve, rate);
    }

    /// @notice `IReserveInterestRateStrategy.calculateInterestRates` of `@aave/core-v3` 1.19.
    /// @return liquidityRate The rate suppliers earn (ray, yearly).
    /// @return stableBorrowRate Equal to the variable rate (stable borrowing stays disabled in the sandbox).
    /// @return variableBorrowRate The rate variable borrowers pay (ray, yearly).
    function calculateInterestRates(CalculateInterestRatesParams memory params)
        external
        view
        returns (uint256 liquidityRate, uint256 stableBorrowRate, uint256 variableBorrowRate)
    {
        uint256 target = targetLiquidityRate[params.reserve];
        uint256 totalDebt = params.totalStableDebt + params.totalVariableDebt;
        uint256 supplyUsage;
        if (totalDebt != 0) {
            uint256 available =
                IERC20Minimal(params.reserve).balanceOf(params.aToken) + params.liquidityAdded - params.liquidityTaken;
            supplyUsage = _rayDiv(totalDebt, available + totalDebt + params.unbacked);
        }
        uint256 kept = PERCENTAGE_FACTOR - params.reserveFactor;
        if (supplyUsage == 0 || kept == 0 || params.totalVariableDebt == 0) {
            // Nobody pays a rate we can set: quote the target as the borrow rate, suppliers get what stable debt pays.
            variableBorrowRate = target;
        } else {
            // Overall borrow rate that yields the target, then the variable rate that makes up that overall rate.
            uint256 overall = _rayDiv(target * PERCENTAGE_FACTOR / kept, supplyUsage);
            uint256 owed = overall * totalDebt;
            uint256 stablePart = params.averageStableBorrowRate * params.totalStableDebt;
            variableBorrowRate = owed > stablePart ? (owed - stablePart) / params.totalVariableDebt : 0;
            if (variableBorrowRate > MAX_VARIABLE_BORROW_RATE) variableBorrowRate = MAX_VARIABLE_BORROW_RATE;
        }
        stableBorrowRate = variableBorrowRate;
        if (totalDebt != 0) {
            // Aave's own formula from the rates actually charged: never more than borrowers pay.
            uint256 overallRate = (params.totalVariableDebt * variableBorrowRate
                + params.totalStableDebt * params.averageStableBorrowRate) / totalDebt;
            liquidityRate = _rayMul(overallRate, supplyUsage) * kept / PERCENTAGE_FACTOR;
        }
    }

    function _rayDiv(uint256 a, uint256 b) private pure returns (uint256) {
        return (a * RAY + b / 2) / b;
    }

    function _rayMul(uint256 a, uint256 b) private pure returns (uint256) {
        return (a * b + RAY / 2) / RAY;
    }
}
